// What the write and live-connection tests share: their set-up from the environment, a DynamoDB client
// for writing straight to the server's tables (as any other writer would, not through the server),
// plain GraphQL over HTTP, and a walk of a connection with no client cache to compare with.
//
//   GRAPHQL_URL=http://127.0.0.1:8191/graphql FIXTURES=/path/fixtures.json
//   (or BASE_URL=http://127.0.0.1:8191, as the browser test has it)
//
// FIXTURES (written by WebClientsIT) has, besides what clients.test.mjs reads,
// "dynamodb": {"endpoint", "region", "usersTable", "purchasesTable"}: the server's DynamoDB and its tables.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

// Node 20 is still supported by this SDK release; its notice about later releases is no test failure.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient, PutItemCommand, UpdateItemCommand } = await import('@aws-sdk/client-dynamodb');

/** Purchases of the tests' users start here (2025-06-15T15:06:40Z), one a minute. */
export const T0 = 1_750_000_000_000;
export const MINUTE = 60_000;

export const TEST_TIMEOUT = 120_000;

function loadSetup() {
  const base = process.env.BASE_URL?.replace(/\/+$/, '');
  const url = process.env.GRAPHQL_URL || (base ? `${base}/graphql` : undefined);
  const fixturesPath = process.env.FIXTURES;
  const missing = [];
  if (!url) missing.push('GRAPHQL_URL (full URL of the server\'s /graphql, e.g. http://127.0.0.1:8191/graphql) or BASE_URL');
  if (!fixturesPath) missing.push('FIXTURES (path of the JSON file written by the Java test)');
  if (missing.length) return { error: new Error(`Missing environment variable(s): ${missing.join('; ')}`) };
  let fixtures;
  try {
    fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8'));
  } catch (cause) {
    return { error: new Error(`Cannot read FIXTURES=${fixturesPath}: ${cause.message}`) };
  }
  const dynamodb = fixtures.dynamodb ?? {};
  const problems = ['endpoint', 'region', 'usersTable', 'purchasesTable']
    .filter((key) => typeof dynamodb[key] !== 'string' || !dynamodb[key])
    .map((key) => `dynamodb.${key} must be a non-empty string`);
  if (problems.length) return { error: new Error(`Bad FIXTURES=${fixturesPath}: ${problems.join('; ')}`) };
  return { url, wsUrl: url.replace(/^http/, 'ws'), fixtures, dynamodb };
}

const setup = loadSetup();

/** The set-up, or a clear failure of the test that asks for it. */
export function requireSetup() {
  if (setup.error) throw setup.error;
  return setup;
}

// ---------------------------------------------------------------------------------------------
// Straight to DynamoDB.

let dynamoDbClient;

function dynamoDb() {
  const { dynamodb } = requireSetup();
  dynamoDbClient ??= new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: dynamodb.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return dynamoDbClient;
}

export function closeDynamoDb() {
  dynamoDbClient?.destroy();
  dynamoDbClient = undefined;
}

export const iso = (millis) => new Date(millis).toISOString();

function purchaseItem(userId, at, { product, category = 'live', amount = 1 }) {
  return {
    userId: { S: userId },
    purchasedAt: { N: String(at) },
    product: { S: product },
    category: { S: category },
    amount: { N: String(amount) },
  };
}

/**
 * A new user of its own (so that no other test's writes reach its subscriptions) with `count`
 * purchases, one a minute from T0: "Item 000" (amount 0), "Item 001" (amount 7)...
 */
export async function newUser(prefix, count) {
  const { dynamodb } = requireSetup();
  const userId = `${prefix}-${randomUUID().slice(0, 8)}`;
  await dynamoDb().send(new PutItemCommand({
    TableName: dynamodb.usersTable,
    Item: { userId: { S: userId }, name: { S: `Web ${prefix}` } },
  }));
  const items = Array.from({ length: count }, (_, i) => purchaseItem(userId, T0 + i * MINUTE,
    { product: `Item ${String(i).padStart(3, '0')}`, category: 'web', amount: (i * 7) % 50 }));
  for (let start = 0; start < items.length; start += 25) {
    let requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt > 10) throw new Error(`BatchWriteItem left ${requests.length} items unwritten`);
      const answer = await dynamoDb().send(new BatchWriteItemCommand({ RequestItems: { [dynamodb.purchasesTable]: requests } }));
      requests = answer.UnprocessedItems?.[dynamodb.purchasesTable] ?? [];
    }
  }
  return userId;
}

/** PutItem of one purchase, straight to the table. */
export async function putPurchase(userId, at, fields) {
  const { dynamodb } = requireSetup();
  await dynamoDb().send(new PutItemCommand({ TableName: dynamodb.purchasesTable, Item: purchaseItem(userId, at, fields) }));
}

export async function setAmount(userId, at, amount) {
  const { dynamodb } = requireSetup();
  await dynamoDb().send(new UpdateItemCommand({
    TableName: dynamodb.purchasesTable,
    Key: { userId: { S: userId }, purchasedAt: { N: String(at) } },
    UpdateExpression: 'SET amount = :a',
    ExpressionAttributeValues: { ':a': { N: String(amount) } },
  }));
}

export async function deletePurchase(userId, at) {
  const { dynamodb } = requireSetup();
  await dynamoDb().send(new DeleteItemCommand({
    TableName: dynamodb.purchasesTable,
    Key: { userId: { S: userId }, purchasedAt: { N: String(at) } },
  }));
}

// ---------------------------------------------------------------------------------------------
// Plain GraphQL over HTTP.

/** POSTs a document; the data, or a failure with the answer's first error code and message. */
export async function graphql(query, variables = {}) {
  const { url } = requireSetup();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json().catch(() => null);
  if (!body || body.errors?.length) {
    const first = body?.errors?.[0];
    throw new Error(`HTTP ${response.status}: ${first ? `${first.extensions?.code ?? 'ERROR'}: ${first.message}` : 'no GraphQL answer'}`);
  }
  return body.data;
}

const WALK = `query Walk($userId: String!, $after: String, $minAmount: Float, $order: SortOrder) {
  user(userId: $userId) {
    purchases(first: 50, after: $after, minAmount: $minAmount, order: $order) {
      edges { node { id purchasedAt product amount } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** The connection's nodes in order, page by page with no client cache: what every client must show. */
export async function directWalk(userId, { minAmount, order = 'ASC' } = {}) {
  const nodes = [];
  let after = null;
  for (let page = 0; page < 1000; page++) {
    const data = await graphql(WALK, { userId, after, minAmount, order });
    const connection = data.user.purchases;
    nodes.push(...connection.edges.map((edge) => edge.node));
    if (!connection.pageInfo.hasNextPage) return nodes;
    after = connection.pageInfo.endCursor;
  }
  throw new Error(`no end of ${userId}'s purchases after 1000 pages`);
}

/** The ids that occur more than once. */
export function repeated(ids) {
  return ids.filter((id, index) => ids.indexOf(id) !== index);
}

// ---------------------------------------------------------------------------------------------
// Live connections.

export const CHANGES = `subscription Changes($userId: String!, $minAmount: Float, $after: String) {
  purchaseChanges(userId: $userId, minAmount: $minAmount, after: $after) {
    kind deletedId eventId
    edge { cursor node { id purchasedAt product amount } }
  }
}`;

/**
 * A subscription's changes as they arrive, and a way to wait for one. `subscribe(onChange, onError)`
 * starts the client's subscription and returns how to end it.
 */
export function collect(subscribe) {
  const changes = [];
  const waiters = new Set();
  let failure = null;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  const stop = subscribe((change) => {
    changes.push({ change, at: Date.now() });
    wake();
  }, (error) => {
    failure = error;
    wake();
  });
  return {
    changes,
    stop,
    /** The first change that `matches`, within `timeout` ms; null if none came. */
    async next(matches, timeout) {
      const deadline = Date.now() + timeout;
      for (;;) {
        if (failure) throw new Error(`the subscription failed: ${describe(failure)}`);
        const found = changes.find((entry) => matches(entry.change));
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise((resolve) => {
          const waiter = () => {
            waiters.delete(waiter);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(waiter, left);
          waiters.add(waiter);
        });
      }
    },
  };
}

function describe(error) {
  if (Array.isArray(error)) return error.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('; ');
  if (error && typeof error === 'object' && 'code' in error && 'reason' in error) return `socket closed ${error.code} ${error.reason}`;
  return error?.message ?? String(error);
}

/**
 * Writes purchases straight to the table until the subscription shows one as ADDED: the server starts a
 * subscription a moment after the client sends it, and a write made before that may be missed, so each
 * attempt writes another purchase. Returns the change and how long after its write it arrived.
 */
export async function directWriteArrives(subscription, userId, { at = T0 + 10 * 365 * 24 * 60 * MINUTE, tries = 6, wait = 2_500 } = {}) {
  const written = new Map();
  for (let attempt = 0; attempt < tries; attempt++) {
    const product = `direct-${attempt}-${randomUUID().slice(0, 6)}`;
    const writeAt = at + attempt;
    const started = Date.now();
    await putPurchase(userId, writeAt, { product, amount: 5 });
    written.set(product, { started, writeAt });
    const found = await subscription.next((change) => written.has(change?.edge?.node?.product), wait);
    if (found) {
      const write = written.get(found.change.edge.node.product);
      const writes = [...written.values()].map((entry) => entry.writeAt);
      return { change: found.change, latency: found.at - write.started, at: write.writeAt, attempts: attempt + 1, writes };
    }
  }
  throw new Error(`none of ${tries} purchases written straight to the table arrived as a change within ${wait} ms each`
    + ` (${subscription.changes.length} other changes arrived)`);
}

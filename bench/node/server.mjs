// The benchmark's Node GraphQL server (bench/README.md, "Start-up and the runtime levers"): the pages the
// start-up section sends, served the way a careful hand-rolled Node server serves them, to measure
// dynamo-relay against. graphql-js with graphql-http on node:http, the AWS SDK v3's document client with
// keep-alive connections, `after` as a signed ExclusiveStartKey (HMAC-SHA256) with the sort key bounded by its
// value, Limit first + 1 for hasNextPage, and each page's users in one BatchGetItem through DataLoader. One
// process (one event loop), as a Node server is usually run: it uses about one core.
//
// usage: PORT=8081 DYNAMODB_ENDPOINT=http://127.0.0.1:8000 [CURSOR_SECRET=...] node bench/node/server.mjs
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import DataLoader from 'dataloader';
import { GraphQLError, buildSchema } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';

const port = Number(process.env.PORT ?? 8081);
const endpoint = process.env.DYNAMODB_ENDPOINT ?? 'http://127.0.0.1:8000';
const secret = createHash('sha256').update(process.env.CURSOR_SECRET ?? 'benchmark').digest();

const schema = buildSchema(`
  type User { id: ID! userId: String! name: String }
  type Purchase { id: ID! userId: String! purchasedAt: String! product: String category: String amount: Float user: User }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type PurchaseEdge { cursor: String! node: Purchase! }
  type PurchaseConnection { edges: [PurchaseEdge!]! pageInfo: PageInfo! }
  type Query { purchasesByCategory(category: String!, first: Int, after: String): PurchaseConnection! }
`);

const dynamoDb = DynamoDBDocumentClient.from(new DynamoDBClient({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  maxAttempts: 3,
  requestHandler: { httpAgent: new http.Agent({ keepAlive: true, maxSockets: 64 }), requestTimeout: 5000 },
}));

function invalid(message, code) {
  return new GraphQLError(message, { extensions: { code } });
}

function sign(payload) {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

function encodeCursor(key) {
  const payload = Buffer.from(JSON.stringify([key.category, key.purchasedAt, key.userId]));
  return `${payload.toString('base64url')}.${sign(payload).toString('base64url')}`;
}

function decodeCursor(cursor, category) {
  const [body, mac] = cursor.split('.');
  if (!body || !mac) throw invalid('after is not a cursor of this connection', 'INVALID_CURSOR');
  const payload = Buffer.from(body, 'base64url');
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== 16 || !timingSafeEqual(given, sign(payload))) {
    throw invalid('after is not a cursor of this connection', 'INVALID_CURSOR');
  }
  const [cursorCategory, purchasedAt, userId] = JSON.parse(payload.toString());
  if (cursorCategory !== category) throw invalid('after is not a cursor of this connection', 'INVALID_CURSOR');
  return { category, purchasedAt, userId };
}

async function batchGetUsers(userIds) {
  const byId = new Map();
  let keys = userIds.map((userId) => ({ userId }));
  for (let attempt = 0; keys.length > 0; attempt++) {
    if (attempt === 5) throw new Error('BatchGetItem left keys unprocessed');
    const answer = await dynamoDb.send(new BatchGetCommand({ RequestItems: { Users: { Keys: keys } } }));
    for (const user of answer.Responses?.Users ?? []) byId.set(user.userId, user);
    keys = answer.UnprocessedKeys?.Users?.Keys ?? [];
  }
  return userIds.map((userId) => byId.get(userId) ?? null);
}

function purchase(item, users) {
  return {
    id: Buffer.from(`Purchase:${item.userId}:${item.purchasedAt}`).toString('base64url'),
    userId: item.userId,
    purchasedAt: new Date(Number(item.purchasedAt)).toISOString(),
    product: item.product,
    category: item.category,
    amount: item.amount,
    user: () => users.load(item.userId).then((user) => user && {
      id: Buffer.from(`User:${user.userId}`).toString('base64url'), userId: user.userId, name: user.name,
    }),
  };
}

const rootValue = {
  async purchasesByCategory({ category, first, after }, context) {
    const size = first ?? 20;
    if (!Number.isInteger(size) || size < 0 || size > 100) {
      throw invalid('first must be between 0 and 100', 'INVALID_ARGUMENT');
    }
    const start = after ? decodeCursor(after, category) : undefined;
    // The cursor's position as the start key, where DynamoDB resumes (as dynamo-relay sends it).
    const answer = await dynamoDb.send(new QueryCommand({
      TableName: 'UserPurchases',
      IndexName: 'ByCategory',
      KeyConditionExpression: 'category = :c',
      ExpressionAttributeValues: { ':c': category },
      ExclusiveStartKey: start,
      Limit: size + 1,
    }));
    const items = answer.Items ?? [];
    const page = items.slice(0, size);
    const edges = page.map((item) => ({ cursor: encodeCursor(item), node: purchase(item, context.users) }));
    return {
      edges,
      pageInfo: {
        hasNextPage: items.length > size,
        hasPreviousPage: Boolean(after),
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  },
};

const graphql = createHandler({
  schema,
  rootValue,
  context: () => ({ users: new DataLoader(batchGetUsers) }),
});

const server = http.createServer((request, response) => {
  if (request.url === '/graphql' || request.url.startsWith('/graphql?')) {
    graphql(request, response);
  }
  else {
    response.writeHead(404).end();
  }
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));

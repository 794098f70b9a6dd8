// purchaseChanges (a live connection fed by the table's DynamoDB Stream) with each client's own
// subscription transport and defaults, against the running server: Apollo Client's GraphQLWsLink,
// urql's subscriptionExchange and Relay's network `subscribe` over graphql-ws (graphql-transport-ws, the
// `ws` package standing in for the browser's WebSocket in Node 20), and graphql-sse's client (its default
// distinct-connections mode). The purchases are written straight to the table, not through the server:
// a change must arrive whoever writes.
//
//   GRAPHQL_URL=http://127.0.0.1:8191/graphql FIXTURES=/path/fixtures.json npm test
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { relayStylePagination } from '@apollo/client/utilities';
import { Client, cacheExchange, fetchExchange, gql as urqlGql, subscriptionExchange } from '@urql/core';
import { OperationTypeNode } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import {
  Environment, Network, Observable, RecordSource, Store, requestSubscription,
} from 'relay-runtime';
import WebSocket from 'ws';

import PurchasesChangesSubscription from '../relay/__generated__/PurchasesChangesSubscription.graphql.js';
import { LiveList } from '../src/live-list.js';
import {
  CHANGES, MINUTE, T0, TEST_TIMEOUT, closeDynamoDb, collect, deletePurchase, directWalk, directWriteArrives,
  newUser, putPurchase, repeated, requireSetup, setAmount,
} from './support.mjs';

/** How soon a change must arrive once the subscription is known to be running. */
const LIVE_WITHIN = 1_000;

after(closeDynamoDb);

/** A graphql-ws client as a browser would make it: lazy, retrying a dropped connection (1012 included). */
function wsClient() {
  const { wsUrl } = requireSetup();
  return createWsClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    // A token would go here: connectionParams: { Authorization: `Bearer ${token}` }.
    shouldRetry: () => true,
  });
}

function assertAdded(result, userId, what) {
  const { change, latency, attempts } = result;
  assert.equal(change.kind, 'ADDED', `${what}: kind`);
  assert.equal(change.deletedId, null, `${what}: deletedId`);
  assert.match(change.edge.cursor, /^[A-Za-z0-9_-]+$/, `${what}: the edge has a cursor`);
  assert.match(change.eventId, /^[A-Za-z0-9_-]+$/, `${what}: eventId`);
  assert.equal(change.edge.node.amount, 5);
  return `arrived ${latency} ms after its write (write ${attempts})`;
}

test('Apollo Client (GraphQLWsLink, split from HttpLink): changes of purchases written straight to the table keep the list in place', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url } = requireSetup();
  const userId = await newUser('live-apollo', 10);
  const ws = wsClient();
  const client = new ApolloClient({
    link: ApolloLink.split(
      ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
      new GraphQLWsLink(ws),
      new HttpLink({ uri: url }),
    ),
    cache: new InMemoryCache({ typePolicies: { User: { fields: { purchases: relayStylePagination(['minAmount', 'order']) } } } }),
  });
  const query = gql`query UserPurchases($userId: String!) { user(userId: $userId) { id
    purchases(first: 50, order: ASC) { edges { cursor node { id purchasedAt product amount } } pageInfo { hasNextPage endCursor } } } }`;
  const { data } = await client.query({ query, variables: { userId } });
  const list = new LiveList(client.cache, { order: 'ASC' });
  list.setUser(client.cache.identify(data.user));
  const ids = () => client.readQuery({ query, variables: { userId } }).user.purchases.edges.map((edge) => edge.node.id);

  const subscription = collect((onChange, onError) => {
    const handle = client.subscribe({ query: gql(CHANGES), variables: { userId } }).subscribe({
      next: ({ data: change, error }) => {
        if (error) onError(error);
        else {
          list.apply(change.purchaseChanges);
          onChange(change.purchaseChanges);
        }
      },
      error: onError,
    });
    return () => handle.unsubscribe();
  });
  try {
    // Once a change has arrived the subscription is running; the purchases written until then leave the
    // table again (one written before it ran is in the table but never reached the list).
    const running = await directWriteArrives(subscription, userId);
    t.diagnostic(`ADDED ${assertAdded(running, userId, 'Apollo')}`);
    for (const at of running.writes) await deletePurchase(userId, at);
    assert.ok(await subscription.next((change) => change.deletedId === running.change.edge.node.id, LIVE_WITHIN),
      `no REMOVED change within ${LIVE_WITHIN} ms`);

    // In the middle of the list (between its 3rd and 4th purchase): in place as it arrives.
    const at = T0 + 2 * MINUTE + 30_000;
    let started = Date.now();
    await putPurchase(userId, at, { product: 'live-middle', amount: 5 });
    const added = await subscription.next((change) => change.edge?.node.product === 'live-middle', LIVE_WITHIN);
    assert.ok(added, `no ADDED change within ${LIVE_WITHIN} ms`);
    t.diagnostic(`ADDED arrived ${added.at - started} ms after its write`);
    const id = added.change.edge.node.id;
    assert.deepStrictEqual(ids(), (await directWalk(userId)).map((node) => node.id), 'the ADDED purchase is in its place');
    assert.equal(ids()[3], id);

    started = Date.now();
    await setAmount(userId, at, 9);
    const updated = await subscription.next((change) => change.kind === 'UPDATED', LIVE_WITHIN);
    assert.ok(updated, `no UPDATED change within ${LIVE_WITHIN} ms`);
    t.diagnostic(`UPDATED arrived ${updated.at - started} ms after its write`);
    const cached = client.cache.extract()[client.cache.identify({ __typename: 'Purchase', id })];
    assert.equal(cached.amount, 9, 'the UPDATED node is current in the cache');

    started = Date.now();
    await deletePurchase(userId, at);
    const removed = await subscription.next((change) => change.deletedId === id, LIVE_WITHIN);
    assert.ok(removed, `no REMOVED change within ${LIVE_WITHIN} ms`);
    t.diagnostic(`REMOVED arrived ${removed.at - started} ms after its write`);
    assert.equal(removed.change.deletedId, id);
    assert.ok(!ids().includes(id), 'the REMOVED purchase left the list');
    assert.deepStrictEqual(ids(), (await directWalk(userId)).map((node) => node.id), 'the list is the connection again');
  } finally {
    subscription.stop();
    client.stop();
    await ws.dispose();
  }
});

test('urql (subscriptionExchange over graphql-ws): receives a purchase written straight to the table', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url } = requireSetup();
  const userId = await newUser('live-urql', 1);
  const ws = wsClient();
  const client = new Client({
    url,
    exchanges: [
      cacheExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' };
          return { subscribe: (sink) => ({ unsubscribe: ws.subscribe(input, sink) }) };
        },
      }),
      fetchExchange,
    ],
  });
  const subscription = collect((onChange, onError) => {
    const { unsubscribe } = client.subscription(urqlGql(CHANGES), { userId }).subscribe((result) => {
      if (result.error) onError(result.error);
      else onChange(result.data.purchaseChanges);
    });
    return unsubscribe;
  });
  try {
    const arrived = await directWriteArrives(subscription, userId);
    t.diagnostic(`ADDED ${assertAdded(arrived, userId, 'urql')}`);
    const latency = await nextWriteLatency(subscription, userId, arrived.at + 1);
    t.diagnostic(`the next write arrived ${latency} ms after it`);
  } finally {
    subscription.stop();
    await ws.dispose();
  }
});

test('graphql-sse (distinct connections): receives a purchase written straight to the table', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url } = requireSetup();
  const userId = await newUser('live-sse', 1);
  // Its defaults: one POST with Accept: text/event-stream per operation. Its default retries are for
  // the connection's start; a token would go in `headers: { Authorization: ... }`.
  const client = createSseClient({ url });
  const subscription = collect((onChange, onError) => client.subscribe({ query: CHANGES, variables: { userId } }, {
    next: (result) => (result.errors ? onError(result.errors) : onChange(result.data.purchaseChanges)),
    error: onError,
    complete: () => {},
  }));
  try {
    const arrived = await directWriteArrives(subscription, userId);
    t.diagnostic(`ADDED ${assertAdded(arrived, userId, 'graphql-sse')}`);
    const latency = await nextWriteLatency(subscription, userId, arrived.at + 1);
    t.diagnostic(`the next write arrived ${latency} ms after it`);
  } finally {
    subscription.stop();
    client.dispose();
  }
});

test('Relay (network subscribe over graphql-ws): receives a purchase written straight to the table, into the store', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url } = requireSetup();
  const userId = await newUser('live-relay', 1);
  const ws = wsClient();
  const network = Network.create(
    async (params, variables) => (await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: params.text, operationName: params.name, variables }),
    })).json(),
    (params, variables) => Observable.create((sink) => ws.subscribe(
      { operationName: params.name, query: params.text, variables },
      {
        next: sink.next,
        complete: sink.complete,
        error: (error) => sink.error(error instanceof Error ? error
          : new Error(Array.isArray(error) ? error.map((e) => e.message).join('; ') : `socket closed ${error?.code}`)),
      },
    )),
  );
  const environment = new Environment({ network, store: new Store(new RecordSource()) });
  const subscription = collect((onChange, onError) => {
    const disposable = requestSubscription(environment, {
      subscription: PurchasesChangesSubscription,
      variables: { userId, minAmount: null, after: null },
      onNext: (response) => onChange(response.purchaseChanges),
      onError,
    });
    return () => disposable.dispose();
  });
  try {
    const arrived = await directWriteArrives(subscription, userId);
    t.diagnostic(`ADDED ${assertAdded(arrived, userId, 'Relay')}`);
    const record = environment.getStore().getSource().get(arrived.change.edge.node.id);
    assert.equal(record?.product, arrived.change.edge.node.product, 'the change\'s node is in the store by its id');
    const latency = await nextWriteLatency(subscription, userId, arrived.at + 1);
    t.diagnostic(`the next write arrived ${latency} ms after it`);
  } finally {
    subscription.stop();
    await ws.dispose();
  }
});

/** Once a subscription is known to be running: one more direct write arrives within LIVE_WITHIN. */
async function nextWriteLatency(subscription, userId, at) {
  const product = `next-${at}`;
  const started = Date.now();
  await putPurchase(userId, at, { product, amount: 5 });
  const found = await subscription.next((change) => change?.edge?.node?.product === product, LIVE_WITHIN);
  assert.ok(found, `a purchase written straight to the table did not arrive within ${LIVE_WITHIN} ms`);
  assert.equal(found.change.kind, 'ADDED');
  return found.at - started;
}

// Writes through the payload-style mutations, with each client's own way of putting the answer into the
// list it shows, against the running server: Apollo Client (cache.modify through src/live-list.js, the
// code of the infinite-scroll page) and Relay (@appendEdge, @prependEdge, @deleteEdge, @deleteRecord in
// relay/Purchases.js, compiled by relay-compiler). After each write, and after paging on to the end, the
// client's merged list must be the connection as a walk with no client cache reads it: every purchase
// once, in order, nothing left out.
//
//   GRAPHQL_URL=http://127.0.0.1:8191/graphql FIXTURES=/path/fixtures.json npm test
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import {
  Environment, Network, RecordSource, Store, commitMutation, createOperationDescriptor, fetchQuery,
} from 'relay-runtime';

import PurchasesAppendMutation from '../relay/__generated__/PurchasesAppendMutation.graphql.js';
import PurchasesPrependMutation from '../relay/__generated__/PurchasesPrependMutation.graphql.js';
import PurchasesQuery from '../relay/__generated__/PurchasesQuery.graphql.js';
import PurchasesRemoveMutation from '../relay/__generated__/PurchasesRemoveMutation.graphql.js';
import { LiveList } from '../src/live-list.js';
import {
  MINUTE, T0, TEST_TIMEOUT, closeDynamoDb, directWalk, iso, newUser, repeated, requireSetup,
} from './support.mjs';

const PAGE_SIZE = 7;
const PURCHASES = 20;

after(closeDynamoDb);

/** The ids of a list, with a message that names what differs from the direct walk. */
function assertSameList(actualIds, expectedNodes, what) {
  assert.deepStrictEqual(repeated(actualIds), [], `${what}: a purchase is listed twice`);
  const expectedIds = expectedNodes.map((node) => node.id);
  const missing = expectedNodes.filter((node) => !actualIds.includes(node.id)).map((node) => node.product);
  assert.deepStrictEqual(missing, [], `${what}: purchases missing from the list`);
  assert.deepStrictEqual(actualIds, expectedIds, `${what}: the list differs from a direct walk of the connection`);
}

// ---------------------------------------------------------------------------------------------
// Apollo Client: relayStylePagination() and LiveList (cache.modify; evict + gc).

const APOLLO_PURCHASES = gql`
  query UserPurchases($userId: String!, $first: Int!, $after: String, $minAmount: Float, $order: SortOrder,
                      $withTotal: Boolean!) {
    user(userId: $userId) {
      id
      purchases(first: $first, after: $after, minAmount: $minAmount, order: $order) {
        totalCount @include(if: $withTotal)
        edges { cursor node { id purchasedAt product amount } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`;

const APOLLO_ADD = gql`
  mutation AddPurchase($input: AddPurchaseInput!, $minAmount: Float, $order: SortOrder) {
    addPurchase(input: $input) {
      purchaseEdge(minAmount: $minAmount, order: $order) { cursor node { id purchasedAt product amount } }
    }
  }
`;

const APOLLO_REMOVE = gql`
  mutation RemovePurchase($input: RemovePurchaseInput!) {
    removePurchase(input: $input) { deletedId }
  }
`;

/** An Apollo Client with its defaults (POST) on the server, and one list of a user's purchases in it. */
async function apolloList({ userId, minAmount, order = 'ASC' }) {
  const { url } = requireSetup();
  const client = new ApolloClient({
    link: new HttpLink({ uri: url }),
    cache: new InMemoryCache({
      typePolicies: { User: { fields: { purchases: relayStylePagination(['minAmount', 'order']) } } },
    }),
  });
  const variables = { userId, first: PAGE_SIZE, order, withTotal: true };
  if (minAmount !== undefined) variables.minAmount = minAmount;
  const observable = client.watchQuery({ query: APOLLO_PURCHASES, variables });
  const first = await new Promise((resolve, reject) => {
    const subscription = observable.subscribe({
      next(result) {
        if (result.error) reject(result.error);
        else if (!result.loading && result.data) resolve({ result, subscription });
      },
      error: reject,
    });
  });
  const list = new LiveList(client.cache, { minAmount, order });
  list.setUser(client.cache.identify(first.result.data.user));
  const read = () => client.readQuery({ query: APOLLO_PURCHASES, variables }).user.purchases;
  return {
    client,
    list,
    read,
    ids: () => read().edges.map((edge) => edge.node.id),
    async add(input) {
      let outcome;
      const { data } = await client.mutate({
        mutation: APOLLO_ADD,
        variables: { input: { userId, category: 'web', amount: 30, ...input }, minAmount, order },
        update(cache, { data: answer }) {
          outcome = list.add(answer.addPurchase.purchaseEdge, { own: true });
        },
      });
      return { edge: data.addPurchase.purchaseEdge, outcome };
    },
    async remove(id) {
      let outcome;
      await client.mutate({
        mutation: APOLLO_REMOVE,
        variables: { input: { id } },
        update(cache, { data: answer }) {
          outcome = list.remove(answer.removePurchase.deletedId ?? id, { deleted: true });
        },
      });
      return outcome;
    },
    /** fetchMore from the merged endCursor until the end, holding live changes while a page is out. */
    async pageToEnd() {
      for (let pages = 0; read().pageInfo.hasNextPage; pages++) {
        assert.ok(pages < 100, 'no end after 100 pages');
        list.hold();
        try {
          const more = await observable.fetchMore({ variables: { after: read().pageInfo.endCursor, withTotal: false } });
          if (more.error) throw more.error;
        } finally {
          list.release();
        }
      }
    },
    stop() {
      first.subscription.unsubscribe();
      client.stop();
    },
  };
}

test('Apollo Client: addPurchase edges go to their place (cache.modify), later pages bring the rest once, removePurchase evicts', { timeout: TEST_TIMEOUT }, async (t) => {
  const userId = await newUser('apollo-asc', PURCHASES);
  const apollo = await apolloList({ userId });
  try {
    const page = apollo.ids();
    assert.equal(page.length, PAGE_SIZE);
    assert.equal(apollo.read().pageInfo.hasNextPage, true);

    // Between the 3rd and 4th purchase: inside the loaded page, so in place at once.
    const middle = await apollo.add({ product: 'apollo-middle', purchasedAt: iso(T0 + 2 * MINUTE + 30_000) });
    assert.equal(middle.outcome, 'inserted');
    assert.deepStrictEqual(apollo.ids(), [...page.slice(0, 3), middle.edge.node.id, ...page.slice(3)]);
    assert.equal(apollo.read().totalCount, PURCHASES + 1, 'totalCount counts the new purchase');

    // Now: after the last loaded purchase while more pages follow, so it comes with the last page.
    const late = await apollo.add({ product: 'apollo-late' });
    assert.equal(late.outcome, 'later');
    assert.equal(apollo.ids().length, PAGE_SIZE + 1);
    assert.equal(apollo.read().totalCount, PURCHASES + 2, 'totalCount counts a purchase left for a later page');

    await apollo.pageToEnd();
    assertSameList(apollo.ids(), await directWalk(userId), 'after paging to the end');
    assert.equal(apollo.ids().at(-1), late.edge.node.id, 'the late purchase came with the last page, once');

    // At the end of the list: appended.
    const last = await apollo.add({ product: 'apollo-last' });
    assert.equal(last.outcome, 'inserted');
    assert.equal(apollo.ids().at(-1), last.edge.node.id);

    // Deleted: out of the list and out of the cache.
    const gone = page[4];
    assert.equal(await apollo.remove(gone), 'removed');
    assert.equal(await apollo.remove(last.edge.node.id), 'removed');
    assert.ok(!apollo.client.cache.extract()[apollo.client.cache.identify({ __typename: 'Purchase', id: gone })],
      'the deleted purchase is evicted from the cache');
    const expected = await directWalk(userId);
    assertSameList(apollo.ids(), expected, 'after the deletes');
    assert.equal(apollo.read().totalCount, expected.length, 'totalCount follows the writes');
    t.diagnostic(`${expected.length} purchases, each once`);
  } finally {
    apollo.stop();
  }
});

test('Apollo Client: in DESC order a new purchase goes on top; paging on after an insert and a delete repeats and skips nothing', { timeout: TEST_TIMEOUT }, async () => {
  const userId = await newUser('apollo-desc', PURCHASES);
  const apollo = await apolloList({ userId, order: 'DESC' });
  try {
    const page = apollo.ids();
    const top = await apollo.add({ product: 'apollo-top' });
    assert.equal(top.outcome, 'inserted');
    assert.deepStrictEqual(apollo.ids(), [top.edge.node.id, ...page]);

    assert.equal(await apollo.remove(page[2]), 'removed');
    // Older than every purchase: after the last loaded one in DESC order, so it comes with the last page.
    const oldest = await apollo.add({ product: 'apollo-oldest', purchasedAt: iso(T0 - MINUTE) });
    assert.equal(oldest.outcome, 'later');

    await apollo.pageToEnd();
    assertSameList(apollo.ids(), await directWalk(userId, { order: 'DESC' }), 'DESC, after paging to the end');
    assert.equal(apollo.ids().at(-1), oldest.edge.node.id);
  } finally {
    apollo.stop();
  }
});

test('Apollo Client: below the list\'s minAmount, purchaseEdge is null and the filtered list stays as it is', { timeout: TEST_TIMEOUT }, async () => {
  const userId = await newUser('apollo-min', PURCHASES);
  const apollo = await apolloList({ userId, minAmount: 20 });
  try {
    const before = apollo.ids();
    const small = await apollo.add({ product: 'apollo-small', amount: 5, purchasedAt: iso(T0 + 30_000) });
    assert.equal(small.edge, null, 'no edge: the purchase is not in User.purchases(minAmount: 20)');
    assert.equal(small.outcome, 'ignored');
    const big = await apollo.add({ product: 'apollo-big', amount: 25, purchasedAt: iso(T0 + 90_000) });
    assert.equal(big.outcome, 'inserted');
    assert.deepStrictEqual(apollo.ids().filter((id) => id !== big.edge.node.id), before);
    await apollo.pageToEnd();
    assertSameList(apollo.ids(), await directWalk(userId, { minAmount: 20 }), 'minAmount: 20, after paging to the end');
  } finally {
    apollo.stop();
  }
});

// ---------------------------------------------------------------------------------------------
// Relay: relay-runtime's Environment with a network that POSTs; the compiled artifacts' directives
// put the answers into the @connection list. @appendEdge/@prependEdge insert at one end of the lists
// named in `connections`: a client names the list only when the new purchase belongs at that end of
// what it holds (ASC: when the list has reached its end; DESC: a new purchase is always first).

function relayEnvironment() {
  const { url } = requireSetup();
  const network = Network.create(async (params, variables) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: params.text, operationName: params.name, variables }),
    });
    return response.json();
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}

async function relayList({ userId, order = 'ASC', minAmount = null }) {
  const environment = relayEnvironment();
  const variables = { userId, first: PAGE_SIZE, after: null, minAmount, order };
  const operation = createOperationDescriptor(PurchasesQuery, variables);
  // Kept in the store while the test reads it (Relay collects what no operation retains).
  const retained = environment.retain(operation);
  await fetchQuery(environment, PurchasesQuery, variables).toPromise();
  const read = () => {
    const snapshot = environment.lookup(operation.fragment);
    assert.equal(snapshot.isMissingData, false, 'the connection is whole in the store');
    return snapshot.data.user.purchases;
  };
  const commit = (mutation, mutationVariables) => new Promise((resolve, reject) => {
    commitMutation(environment, {
      mutation,
      variables: mutationVariables,
      onCompleted: (response, errors) => (errors?.length ? reject(new Error(errors[0].message)) : resolve(response)),
      onError: reject,
    });
  });
  return {
    environment,
    read,
    ids: () => read().edges.map((edge) => edge.node.id),
    connection: () => read().__id,
    add(mutation, input, connections) {
      return commit(mutation, {
        input: { userId, category: 'web', amount: 30, ...input }, minAmount, order, connections,
      });
    },
    remove(id, connections) {
      return commit(PurchasesRemoveMutation, { input: { id }, connections });
    },
    /** Pages from the store's endCursor: Relay's connection handler appends each page, by node id once. */
    async pageToEnd() {
      for (let pages = 0; read().pageInfo.hasNextPage; pages++) {
        assert.ok(pages < 100, 'no end after 100 pages');
        await fetchQuery(environment, PurchasesQuery, { ...variables, after: read().pageInfo.endCursor }).toPromise();
      }
    },
    stop() {
      retained.dispose();
    },
  };
}

test('Relay: @appendEdge and @deleteEdge/@deleteRecord keep the @connection list, and paging on brings the rest once', { timeout: TEST_TIMEOUT }, async (t) => {
  const userId = await newUser('relay-asc', PURCHASES);
  const relay = await relayList({ userId });
  try {
    const page = relay.ids();
    assert.equal(page.length, PAGE_SIZE);
    assert.equal(relay.read().pageInfo.hasNextPage, true);

    // More pages follow: the new purchase (now, last in ASC) is left to them: no connection named.
    const late = await relay.add(PurchasesAppendMutation, { product: 'relay-late' }, []);
    assert.deepStrictEqual(relay.ids(), page, 'a purchase that sorts after a list with more pages is not appended');

    await relay.pageToEnd();
    assertSameList(relay.ids(), await directWalk(userId), 'after paging to the end');
    assert.equal(relay.ids().at(-1), late.addPurchase.purchaseEdge.node.id);

    // The list has reached its end: @appendEdge puts the next one there.
    const last = await relay.add(PurchasesAppendMutation, { product: 'relay-last' }, [relay.connection()]);
    const lastId = last.addPurchase.purchaseEdge.node.id;
    assert.equal(relay.ids().at(-1), lastId);
    assertSameList(relay.ids(), await directWalk(userId), 'after @appendEdge');

    // @deleteEdge takes it out of the list, @deleteRecord out of the store.
    const removed = await relay.remove(page[3], [relay.connection()]);
    assert.equal(removed.removePurchase.deletedId, page[3]);
    assert.equal(relay.environment.getStore().getSource().get(page[3]), null, '@deleteRecord deleted the record');
    await relay.remove(lastId, [relay.connection()]);
    const expected = await directWalk(userId);
    assertSameList(relay.ids(), expected, 'after @deleteEdge');
    t.diagnostic(`${expected.length} purchases, each once`);
  } finally {
    relay.stop();
  }
});

test('Relay: in DESC order @prependEdge puts a new purchase first; paging on after it and a delete repeats and skips nothing', { timeout: TEST_TIMEOUT }, async () => {
  const userId = await newUser('relay-desc', PURCHASES);
  const relay = await relayList({ userId, order: 'DESC' });
  try {
    const page = relay.ids();
    const top = await relay.add(PurchasesPrependMutation, { product: 'relay-top' }, [relay.connection()]);
    const topId = top.addPurchase.purchaseEdge.node.id;
    assert.deepStrictEqual(relay.ids(), [topId, ...page]);
    await relay.remove(page[2], [relay.connection()]);
    assert.deepStrictEqual(relay.ids(), [topId, ...page.filter((id) => id !== page[2])]);

    await relay.pageToEnd();
    assertSameList(relay.ids(), await directWalk(userId, { order: 'DESC' }), 'DESC, after paging to the end');
  } finally {
    relay.stop();
  }
});

// Walks dynamo-relay's cursor connections with real GraphQL clients and compares the clients'
// *merged* cache lists with the ids that the Java test wrote into FIXTURES: Apollo Client with its
// defaults (POST) and with GET + automatic persisted queries, urql with its defaults (GET).
//
//   GRAPHQL_URL=http://127.0.0.1:8191/graphql FIXTURES=/path/fixtures.json npm test
//
// FIXTURES: {"userId", "purchaseIds" (ASC), "minAmount", "filteredIds" (amount >= minAmount, ASC),
//            "category", "categoryIds" (the category connection's ASC order)}
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { relayStylePagination } from '@apollo/client/utilities';
import { Client, fetchExchange, gql as urqlGql, mapExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';

const PAGE_SIZE = 7;
const TEST_TIMEOUT = 120_000;

// ---------------------------------------------------------------------------------------------
// Environment: a missing variable or a bad fixture makes every test FAIL with a clear message.

function loadSetup() {
  const url = process.env.GRAPHQL_URL;
  const fixturesPath = process.env.FIXTURES;
  const missing = [];
  if (!url) missing.push('GRAPHQL_URL (full URL of the server\'s /graphql, e.g. http://127.0.0.1:8191/graphql)');
  if (!fixturesPath) missing.push('FIXTURES (path of the JSON file written by the Java test)');
  if (missing.length) {
    return { error: new Error(`Missing environment variable(s): ${missing.join('; ')}`) };
  }
  let fixtures;
  try {
    fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8'));
  } catch (cause) {
    return { error: new Error(`Cannot read FIXTURES=${fixturesPath}: ${cause.message}`) };
  }
  const problems = [];
  if (typeof fixtures.userId !== 'string' || !fixtures.userId) problems.push('userId must be a non-empty string');
  if (typeof fixtures.category !== 'string' || !fixtures.category) problems.push('category must be a non-empty string');
  if (typeof fixtures.minAmount !== 'number') problems.push('minAmount must be a number');
  for (const key of ['purchaseIds', 'filteredIds', 'categoryIds']) {
    if (!Array.isArray(fixtures[key]) || fixtures[key].some((id) => typeof id !== 'string')) {
      problems.push(`${key} must be an array of node ids`);
    }
  }
  for (const key of ['purchaseIds', 'categoryIds']) {
    if (Array.isArray(fixtures[key]) && fixtures[key].length === 0) problems.push(`${key} must not be empty`);
  }
  if (problems.length) return { error: new Error(`Bad FIXTURES=${fixturesPath}: ${problems.join('; ')}`) };
  return { url, fixtures };
}

const setup = loadSetup();

function requireSetup() {
  if (setup.error) throw setup.error;
  return setup;
}

/** A bound on pages, so that a walk that never ends fails instead of hanging. */
function maxPages(expected) {
  // Budget-cut pages can be empty, so allow many more pages than ceil(n / size).
  return Math.ceil(expected.length / PAGE_SIZE) * 20 + 50;
}

/**
 * A fetch that records each request (method, URL, body) before sending it, so that a test can say
 * how its client talked to the server.
 */
function recordingFetch() {
  const requests = [];
  const fetch = (input, init = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    requests.push({ method: (init.method ?? input.method ?? 'GET').toUpperCase(), url, body: init.body });
    return globalThis.fetch(input, init);
  };
  return { fetch, requests };
}

// ---------------------------------------------------------------------------------------------
// Apollo Client 4: InMemoryCache + relayStylePagination(), paging with ObservableQuery.fetchMore.
//
// Two ways of talking to the server: Apollo's defaults (POST with the query), and queries over GET
// with automatic persisted queries (PersistedQueryLink sends the query's SHA-256 alone; the server
// answers PersistedQueryNotFound the first time, the link sends the query with its hash, and every
// later page is a short GET with the hash alone).

const APOLLO_USER_PURCHASES = gql`
  query UserPurchases($userId: String!, $first: Int, $after: String, $last: Int, $before: String,
                      $minAmount: Float) {
    user(userId: $userId) {
      id
      purchases(first: $first, after: $after, last: $last, before: $before, minAmount: $minAmount) {
        edges { cursor node { id purchasedAt amount } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`;

const APOLLO_CATEGORY_PURCHASES = gql`
  query CategoryPurchases($category: String!, $first: Int, $after: String) {
    purchasesByCategory(category: $category, first: $first, after: $after) {
      edges { cursor node { id purchasedAt category } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`;

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

function apolloClient(url, mode) {
  const { fetch, requests } = recordingFetch();
  const http = mode === 'get-apq'
    ? ApolloLink.from([new PersistedQueryLink({ sha256 }), new HttpLink({ uri: url, useGETForQueries: true, fetch })])
    : new HttpLink({ uri: url, fetch });
  const client = new ApolloClient({
    link: http,
    cache: new InMemoryCache({
      typePolicies: {
        User: { fields: { purchases: relayStylePagination(['minAmount', 'order']) } },
        Query: { fields: { purchasesByCategory: relayStylePagination(['category', 'minAmount', 'order']) } },
      },
    }),
  });
  return { client, requests };
}

/** How the client talked to the server: Apollo's defaults POST; with GET + APQ, hashes over GET. */
function assertApolloRequests(mode, requests, pages) {
  assert.ok(requests.length >= pages, `${requests.length} requests for ${pages} pages`);
  if (mode === 'get-apq') {
    assert.deepStrictEqual([...new Set(requests.map((request) => request.method))], ['GET'], 'every request is a GET');
    const withQuery = requests.filter((request) => request.url.searchParams.has('query'));
    const hashOnly = requests.filter((request) => !request.url.searchParams.has('query'));
    assert.ok(withQuery.length <= 1, `the query is sent at most once (to register it), not ${withQuery.length} times`);
    assert.ok(hashOnly.length >= pages - 1, `${hashOnly.length} requests by hash alone for ${pages} pages`);
    for (const request of requests) {
      const extensions = JSON.parse(request.url.searchParams.get('extensions'));
      assert.equal(extensions.persistedQuery.version, 1);
      assert.match(extensions.persistedQuery.sha256Hash, /^[0-9a-f]{64}$/);
    }
  } else {
    assert.deepStrictEqual([...new Set(requests.map((request) => request.method))], ['POST'], 'Apollo POSTs by default');
  }
}

/** Subscribes (which starts the query) and resolves with the first complete result. */
function firstResult(observable) {
  return new Promise((resolve, reject) => {
    let subscription;
    subscription = observable.subscribe({
      next(result) {
        if (result.error) {
          reject(result.error);
        } else if (!result.loading && result.data) {
          resolve({ result, subscription });
        }
      },
      error: reject,
    });
  });
}

/**
 * Walks a connection to its end with fetchMore. `direction` is 'forward' (first/after, continue
 * from pageInfo.endCursor while hasNextPage) or 'backward' (last/before, continue from
 * pageInfo.startCursor while hasPreviousPage).
 *
 * The walk continues from the cursor of the page that just came from the network: a page cut by
 * the server's read budget can have no edges, and then its endCursor (startCursor backwards) is
 * where reading stopped, not the cursor of any edge. relayStylePagination() keeps such a page:
 * its cursor becomes the merged connection's cursor, which is asserted here too, so a client that
 * continues from the merged cache (like the infinite-scroll page) moves on as well.
 */
async function apolloWalk({ url, mode, query, variables, connection, direction, expected }) {
  const { client, requests } = apolloClient(url, mode);
  const observable = client.watchQuery({ query, variables });
  const { result, subscription } = await firstResult(observable);
  const forward = direction === 'forward';
  const stats = { pages: 1, emptyPages: 0 };
  try {
    let page = connection(result.data);
    if (page.edges.length === 0) stats.emptyPages++;
    const limit = maxPages(expected);
    while (forward ? page.pageInfo.hasNextPage : page.pageInfo.hasPreviousPage) {
      assert.ok(stats.pages < limit, `no end after ${stats.pages} pages`);
      const cursor = forward ? page.pageInfo.endCursor : page.pageInfo.startCursor;
      assert.ok(cursor, `page ${stats.pages} says there is more but has no ${forward ? 'endCursor' : 'startCursor'}`);
      const more = await observable.fetchMore({ variables: forward ? { after: cursor } : { before: cursor } });
      if (more.error) throw more.error;
      page = connection(more.data);
      stats.pages++;
      if (page.edges.length === 0) stats.emptyPages++;

      const merged = connection(client.readQuery({ query, variables }));
      if (forward) {
        assert.equal(merged.pageInfo.endCursor, page.pageInfo.endCursor, 'merged endCursor follows the last page');
        assert.equal(merged.pageInfo.hasNextPage, page.pageInfo.hasNextPage, 'merged hasNextPage follows the last page');
      } else {
        assert.equal(merged.pageInfo.startCursor, page.pageInfo.startCursor, 'merged startCursor follows the last page');
        assert.equal(merged.pageInfo.hasPreviousPage, page.pageInfo.hasPreviousPage, 'merged hasPreviousPage follows the last page');
      }
    }
    // The merged list, read back from the normalized cache with the walk's first variables.
    const merged = connection(client.readQuery({ query, variables }));
    assertApolloRequests(mode, requests, stats.pages);
    stats.requests = requests.length;
    return { ids: merged.edges.map((edge) => edge.node.id), stats };
  } finally {
    subscription.unsubscribe();
    client.stop();
  }
}

for (const [mode, label] of [['default', 'defaults: POST'], ['get-apq', 'GET + persisted queries']]) {
  test(`Apollo Client (${label}): forward walk of User.purchases (first/after) merges to purchaseIds`, { timeout: TEST_TIMEOUT }, async (t) => {
    const { url, fixtures } = requireSetup();
    const { ids, stats } = await apolloWalk({
      url,
      mode,
      query: APOLLO_USER_PURCHASES,
      variables: { userId: fixtures.userId, first: PAGE_SIZE },
      connection: (data) => data.user.purchases,
      direction: 'forward',
      expected: fixtures.purchaseIds,
    });
    t.diagnostic(`${stats.pages} pages, ${stats.requests} requests, ${stats.emptyPages} without edges, ${ids.length} ids`);
    assert.deepStrictEqual(ids, fixtures.purchaseIds);
  });

  test(`Apollo Client (${label}): backward walk of User.purchases (last/before) merges to purchaseIds`, { timeout: TEST_TIMEOUT }, async (t) => {
    const { url, fixtures } = requireSetup();
    const { ids, stats } = await apolloWalk({
      url,
      mode,
      query: APOLLO_USER_PURCHASES,
      variables: { userId: fixtures.userId, last: PAGE_SIZE },
      connection: (data) => data.user.purchases,
      direction: 'backward',
      expected: fixtures.purchaseIds,
    });
    t.diagnostic(`${stats.pages} pages, ${stats.requests} requests, ${stats.emptyPages} without edges, ${ids.length} ids`);
    assert.deepStrictEqual(ids, fixtures.purchaseIds);
  });

  test(`Apollo Client (${label}): forward walk of User.purchases(minAmount) merges to filteredIds`, { timeout: TEST_TIMEOUT }, async (t) => {
    const { url, fixtures } = requireSetup();
    const { ids, stats } = await apolloWalk({
      url,
      mode,
      query: APOLLO_USER_PURCHASES,
      variables: { userId: fixtures.userId, first: PAGE_SIZE, minAmount: fixtures.minAmount },
      connection: (data) => data.user.purchases,
      direction: 'forward',
      expected: fixtures.filteredIds,
    });
    t.diagnostic(`${stats.pages} pages, ${stats.requests} requests, ${stats.emptyPages} without edges (cut by the read budget), ${ids.length} ids`);
    assert.deepStrictEqual(ids, fixtures.filteredIds);
  });

  test(`Apollo Client (${label}): forward walk of Query.purchasesByCategory merges to categoryIds`, { timeout: TEST_TIMEOUT }, async (t) => {
    const { url, fixtures } = requireSetup();
    const { ids, stats } = await apolloWalk({
      url,
      mode,
      query: APOLLO_CATEGORY_PURCHASES,
      variables: { category: fixtures.category, first: PAGE_SIZE },
      connection: (data) => data.purchasesByCategory,
      direction: 'forward',
      expected: fixtures.categoryIds,
    });
    t.diagnostic(`${stats.pages} pages, ${stats.requests} requests, ${stats.emptyPages} without edges, ${ids.length} ids`);
    assert.deepStrictEqual(ids, fixtures.categoryIds);
  });
}

// ---------------------------------------------------------------------------------------------
// urql: @urql/core Client + @urql/exchange-graphcache relayPagination() + fetchExchange.

const URQL_USER_PURCHASES = urqlGql`
  query UserPurchases($userId: String!, $first: Int, $after: String, $minAmount: Float) {
    user(userId: $userId) {
      id
      purchases(first: $first, after: $after, minAmount: $minAmount) {
        edges { cursor node { id purchasedAt amount } }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }
  }
`;

const URQL_CATEGORY_PURCHASES = urqlGql`
  query CategoryPurchases($category: String!, $first: Int, $after: String) {
    purchasesByCategory(category: $category, first: $first, after: $after) {
      edges { cursor node { id purchasedAt category } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`;

/**
 * The client, plus the raw network results by operation key.
 *
 * Why the tap: relayPagination() merges the pages it finds in the cache, but it SKIPS a page with
 * no edges (unless it is the first one). A page that the server's read budget cut with zero
 * edges, hasNextPage true and an endCursor where reading stopped therefore leaves no trace in the
 * merged connection: the merged pageInfo keeps the previous page's endCursor and hasNextPage.
 * Continuing from the merged endCursor would ask for the same empty page again, forever (and a
 * final empty page with hasNextPage false would never be seen). So the walk continues from the
 * pageInfo of the page that came from the network, captured by a mapExchange placed between the
 * cache and fetch exchanges. The next page (after = the empty page's endCursor) is still ordered
 * correctly by relayPagination(), which chains a page behind the page whose endCursor equals its
 * `after`, even when that page is empty, so the merged list stays exact.
 */
function urqlClient(url) {
  const network = new Map();
  const { fetch, requests } = recordingFetch();
  const client = new Client({
    url,
    fetch,
    // urql's defaults otherwise: queries go as GET when they fit in a URL (preferGetMethod: 'within-url').
    requestPolicy: 'cache-first',
    exchanges: [
      cacheExchange({
        keys: {
          // Embedded objects without an id.
          PageInfo: () => null,
          PurchaseConnection: () => null,
          PurchaseEdge: () => null,
        },
        resolvers: {
          User: { purchases: relayPagination() },
          Query: { purchasesByCategory: relayPagination() },
        },
      }),
      mapExchange({
        onResult(result) {
          network.set(result.operation.key, result);
        },
      }),
      fetchExchange,
    ],
  });
  return { client, network, requests };
}

async function urqlWalk({ url, query, variables, connection, expected }) {
  const { client, network, requests } = urqlClient(url);
  const stats = { pages: 0, emptyPages: 0 };
  const limit = maxPages(expected);
  let after = null;
  let merged;
  for (;;) {
    assert.ok(stats.pages < limit, `no end after ${stats.pages} pages`);
    const result = await client.query(query, { ...variables, after }).toPromise();
    if (result.error) throw result.error;
    merged = connection(result.data); // what graphcache's relayPagination() merged so far
    const raw = network.get(result.operation.key);
    assert.ok(raw, `page ${stats.pages + 1} (after ${after}) did not come from the network`);
    if (raw.error) throw raw.error;
    const page = connection(raw.data); // the page exactly as the server sent it
    stats.pages++;
    if (page.edges.length === 0) stats.emptyPages++;
    if (!page.pageInfo.hasNextPage) break;
    assert.ok(page.pageInfo.endCursor, `page ${stats.pages} has hasNextPage but no endCursor`);
    after = page.pageInfo.endCursor;
  }
  // Read the merged list once more from the cache with the walk's first variables (no `after`).
  const final = await client.query(query, { ...variables, after: null }, { requestPolicy: 'cache-only' }).toPromise();
  if (final.error) throw final.error;
  const ids = connection(final.data).edges.map((edge) => edge.node.id);
  assert.deepStrictEqual(ids, merged.edges.map((edge) => edge.node.id), 'the merged list is the same whichever page variables read it');
  assert.equal(requests.length, stats.pages, 'one request per page');
  assert.deepStrictEqual([...new Set(requests.map((request) => request.method))], ['GET'], 'urql sends its queries as GET');
  assert.ok(requests.every((request) => request.url.searchParams.has('query')), 'with the query in the URL');
  stats.requests = requests.length;
  return { ids, stats };
}

test('urql graphcache relayPagination(): forward walk of User.purchases merges to purchaseIds', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url, fixtures } = requireSetup();
  const { ids, stats } = await urqlWalk({
    url,
    query: URQL_USER_PURCHASES,
    variables: { userId: fixtures.userId, first: PAGE_SIZE },
    connection: (data) => data.user.purchases,
    expected: fixtures.purchaseIds,
  });
  t.diagnostic(`${stats.pages} pages, ${stats.requests} GET requests, ${stats.emptyPages} without edges, ${ids.length} ids`);
  assert.deepStrictEqual(ids, fixtures.purchaseIds);
});

test('urql graphcache relayPagination(): forward walk of User.purchases(minAmount) merges to filteredIds', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url, fixtures } = requireSetup();
  const { ids, stats } = await urqlWalk({
    url,
    query: URQL_USER_PURCHASES,
    variables: { userId: fixtures.userId, first: PAGE_SIZE, minAmount: fixtures.minAmount },
    connection: (data) => data.user.purchases,
    expected: fixtures.filteredIds,
  });
  t.diagnostic(`${stats.pages} pages, ${stats.requests} GET requests, ${stats.emptyPages} without edges (cut by the read budget), ${ids.length} ids`);
  assert.deepStrictEqual(ids, fixtures.filteredIds);
});

test('urql graphcache relayPagination(): forward walk of Query.purchasesByCategory merges to categoryIds', { timeout: TEST_TIMEOUT }, async (t) => {
  const { url, fixtures } = requireSetup();
  const { ids, stats } = await urqlWalk({
    url,
    query: URQL_CATEGORY_PURCHASES,
    variables: { category: fixtures.category, first: PAGE_SIZE },
    connection: (data) => data.purchasesByCategory,
    expected: fixtures.categoryIds,
  });
  t.diagnostic(`${stats.pages} pages, ${stats.requests} GET requests, ${stats.emptyPages} without edges, ${ids.length} ids`);
  assert.deepStrictEqual(ids, fixtures.categoryIds);
});

// Drives the built pages (web/dist/, served by the Spring Boot server) in headless Chromium.
//
//   BASE_URL=http://127.0.0.1:8191 FIXTURES=/path/fixtures.json SCREENSHOT_DIR=/tmp/shots \
//     [CHROMIUM=/usr/bin/chromium] npm run test:browser
//
// Every request a page makes is recorded and must start with BASE_URL (data: and blob: URLs
// excepted); anything else is also aborted, so nothing can leave the machine. WebSockets (the live
// connection) must go to the same origin's /graphql.
//
// The live-page tests make users of their own and write straight to the server's DynamoDB, whose endpoint
// and tables FIXTURES names (see support.mjs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { STEP_TIMEOUT, closeBrowser, loadSetup, openIsolatedPage, scrollToEnd as scrollListToEnd } from './chromium.mjs';
import {
  MINUTE, T0, closeDynamoDb, deletePurchase, directWalk, newUser, putPurchase, setAmount,
} from './support.mjs';

const TEST_TIMEOUT = 90_000;

// ---------------------------------------------------------------------------------------------
// Environment: a missing variable makes every test FAIL with a clear message.

const setup = loadSetup((fixtures, path) => (
  typeof fixtures.userId !== 'string' || !Array.isArray(fixtures.purchaseIds) || fixtures.purchaseIds.length === 0
    ? [`FIXTURES=${path} needs "userId" and a non-empty "purchaseIds"`] : []));

function requireSetup() {
  if (setup.error) throw setup.error;
  return setup;
}

after(async () => {
  await closeBrowser();
  closeDynamoDb();
});

/** A fresh context that records every request and aborts any that would leave BASE_URL. */
async function openPage(t, viewport) {
  const { baseUrl, chromiumPath } = requireSetup();
  const { page, context, isLocal, foreign, pageErrors } = await openIsolatedPage(t, { baseUrl, chromiumPath, viewport });
  const requests = [];
  const graphqlBodies = [];
  const sockets = [];
  context.on('request', (request) => {
    requests.push(request.url());
    if (request.url() === `${baseUrl}/graphql` && request.method() === 'POST') graphqlBodies.push(request.postDataJSON());
    if (!isLocal(request.url())) foreign.push(request.url());
  });
  page.on('websocket', (socket) => sockets.push(socket.url()));
  return {
    page,
    context,
    requests,
    pageErrors,
    /** Fails if one page (same operation and variables) was requested twice. */
    assertNoPageFetchedTwice() {
      const pages = graphqlBodies.filter((body) => body?.operationName === 'UserPurchases')
        .map((body) => JSON.stringify(body.variables, Object.keys(body.variables ?? {}).sort()));
      const repeated = pages.filter((key, index) => pages.indexOf(key) !== index);
      assert.deepStrictEqual(repeated, [], 'a page was requested twice');
    },
    assertNoForeignRequests() {
      assert.deepStrictEqual([...new Set(foreign)], [], `requests left ${baseUrl}`);
      const outside = requests.filter((url) => !isLocal(url));
      assert.deepStrictEqual(outside, [], `requests left ${baseUrl}`);
      const socketUrl = `${baseUrl.replace(/^http/, 'ws')}/graphql`;
      assert.deepStrictEqual([...new Set(sockets)].filter((url) => url !== socketUrl), [], `WebSockets other than ${socketUrl}`);
    },
  };
}

const scrollToEnd = (page) => scrollListToEnd(page, '#purchase-list > [data-id]');

async function pickUser(page, userId) {
  await page.locator(`#user-picker option[value="${userId}"]`).waitFor({ state: 'attached' });
  if (await page.locator('#user-picker').inputValue() !== userId) {
    await page.locator('#user-picker').selectOption(userId);
  }
  await page.locator('#purchase-list > [data-id]').first().waitFor();
}

/** Opens a path of BASE_URL and fails at once, with the reason, unless the server answers 2xx. */
async function visit(page, path) {
  const { baseUrl } = requireSetup();
  const response = await page.goto(`${baseUrl}${path}`);
  assert.ok(response?.ok(), `GET ${path} answered ${response?.status()}: the server must serve `
    + 'web/dist/purchases.html at / (the sample served) and web/dist/graphiql/index.html at /graphiql');
}

const listIds = (page) => page.$$eval('#purchase-list > [data-id]', (items) => items.map((item) => item.dataset.id));

test('infinite scroll: shows every purchase of the fixture user exactly once, in order', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl, fixtures, screenshotDir } = requireSetup();
  const { page, context, requests, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openPage(t, { width: 1280, height: 860 });
  try {
    await visit(page, '/');
    // The sample is served: / is the purchases page, not the page of any schema's connections.
    assert.equal(await page.title(), 'dynamo-relay · purchases');
    await pickUser(page, fixtures.userId);
    await page.locator('#status[data-state="idle"], #status[data-state="end"]').waitFor({ state: 'attached' });

    const first = page.locator('#purchase-list > [data-id]').first();
    assert.match(await first.locator('time').getAttribute('datetime'), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    for (const part of ['.purchase-product', '.purchase-category', '.purchase-amount']) {
      assert.notEqual((await first.locator(part).textContent()).trim(), '', `${part} is empty`);
    }
    await page.screenshot({ path: join(screenshotDir, 'infinite-scroll.png') });

    await scrollToEnd(page);
    assert.equal((await page.locator('#status').textContent()).trim(), 'End of list');
    assert.equal(await page.locator('#retry').isVisible(), false);

    const ids = await listIds(page);
    t.diagnostic(`${ids.length} items; ${requests.filter((url) => url.endsWith('/graphql')).length} /graphql requests`);
    assert.deepStrictEqual(ids, fixtures.purchaseIds);
    assert.equal(await page.locator('[data-id]').count(), fixtures.purchaseIds.length, 'no item rendered twice anywhere');
    // The header shows the connection's totalCount.
    assert.equal(await page.locator('#total').textContent(), String(fixtures.purchaseIds.length));
    assertNoPageFetchedTwice();

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.screenshot({ path: join(screenshotDir, 'infinite-scroll-end.png') });
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('infinite scroll with ?minAmount= shows exactly filteredIds (pages cut by the read budget may be empty)', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl, fixtures } = requireSetup();
  assert.equal(typeof fixtures.minAmount, 'number', 'FIXTURES needs "minAmount"');
  assert.ok(Array.isArray(fixtures.filteredIds), 'FIXTURES needs "filteredIds"');
  const { page, context, requests, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openPage(t, { width: 1280, height: 860 });
  try {
    const query = new URLSearchParams({ user: fixtures.userId, minAmount: String(fixtures.minAmount) });
    await visit(page, `/?${query}`);
    await page.waitForFunction((userId) => document.querySelector('#user-picker')?.value === userId, fixtures.userId);
    await page.locator('#status[data-state="idle"], #status[data-state="end"]').waitFor({ state: 'attached' });
    await scrollToEnd(page);
    const ids = await listIds(page);
    t.diagnostic(`${ids.length} items; ${requests.filter((url) => url.endsWith('/graphql')).length} /graphql requests`);
    assert.deepStrictEqual(ids, fixtures.filteredIds);
    assert.equal(await page.locator('#total').textContent(), String(fixtures.filteredIds.length));
    assertNoPageFetchedTwice();
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('infinite scroll: a failed page shows the error with its code, and Retry continues', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl, fixtures, screenshotDir } = requireSetup();
  const { page, context, pageErrors, assertNoForeignRequests } = await openPage(t, { width: 1280, height: 860 });
  try {
    // The first "next page" request of the user's purchases fails once with a GraphQL error.
    let failed = false;
    await page.route(`${baseUrl}/graphql`, async (route) => {
      const body = route.request().postDataJSON();
      if (!failed && body?.operationName === 'UserPurchases' && body.variables?.after
          && body.variables.userId === fixtures.userId) {
        failed = true;
        return route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            errors: [{ message: 'Simulated outage', path: ['user', 'purchases'], extensions: { code: 'UNAVAILABLE' } }],
            data: { user: null },
          }),
        });
      }
      return route.fallback();
    });
    await visit(page, '/');
    await pickUser(page, fixtures.userId);
    if (fixtures.purchaseIds.length <= 20) {
      t.diagnostic('fixture user has a single page: nothing to fail');
      return;
    }
    const status = page.locator('#status');
    const deadline = Date.now() + STEP_TIMEOUT;
    while ((await status.getAttribute('data-state')) !== 'error') {
      assert.ok(Date.now() < deadline, 'the simulated failure never showed');
      await page.mouse.wheel(0, 1200);
      await page.waitForTimeout(150);
    }
    const text = await status.textContent();
    assert.match(text, /UNAVAILABLE/);
    assert.match(text, /Simulated outage/);
    await page.locator('#retry').waitFor({ state: 'visible' });
    await page.screenshot({ path: join(screenshotDir, 'infinite-scroll-error.png') });

    await page.locator('#retry').click();
    await scrollToEnd(page);
    assert.deepStrictEqual(await listIds(page), fixtures.purchaseIds);
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('GraphiQL: loads offline from the server, runs the default query, shows edges', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl, screenshotDir } = requireSetup();
  const { page, context, requests, assertNoForeignRequests } = await openPage(t, { width: 1440, height: 900 });
  try {
    await visit(page, '/graphiql');
    const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
    await queryEditor.waitFor();
    await page.waitForFunction(() => /query\s+Purchases/.test(
      document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? ''));

    // The default tab comes with its variables (page 1: after = null).
    await page.waitForFunction(() => /"after"/.test(
      document.querySelector('.graphiql-editor-tool .view-lines')?.textContent ?? ''));

    await page.locator('.graphiql-execute-button').click();
    await page.waitForFunction(() => /edges/.test(document.querySelector('.graphiql-response')?.textContent ?? ''));
    const response = (await page.locator('.graphiql-response .view-lines').textContent()).replace(/\u00a0/g, ' ');
    assert.match(response, /"data"/);
    assert.doesNotMatch(response, /"errors"/);

    // Docs come from introspecting /graphql: open the explorer and find the schema's types.
    await page.locator('.graphiql-sidebar button[aria-label*="Documentation"]').click();
    await page.waitForFunction(() => /PurchaseConnection|Query/.test(
      document.querySelector('.graphiql-doc-explorer')?.textContent ?? ''));
    const docs = await page.locator('.graphiql-doc-explorer').textContent();
    assert.match(docs, /Query/);

    // Monaco's editor, JSON and GraphQL workers come from the server's own /assets/. The GraphQL
    // worker starts lazily (once the language service has the schema), so wait for it.
    const workers = () => requests.filter((url) => /\/assets\/[^/]*worker[^/]*\.js$/.test(url));
    const deadline = Date.now() + 20_000;
    while (!workers().some((url) => /graphql\.worker/.test(url)) && Date.now() < deadline) {
      await page.waitForTimeout(200);
    }
    t.diagnostic(`workers: ${[...new Set(workers().map((url) => url.slice(baseUrl.length)))].join(', ')}`);
    assert.ok(workers().some((url) => /editor\.worker/.test(url)), 'the editor worker was loaded from /assets/');
    assert.ok(workers().some((url) => /graphql\.worker/.test(url)), 'the GraphQL worker was loaded from /assets/');

    await page.screenshot({ path: join(screenshotDir, 'graphiql.png') });
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------------------------
// The page kept live: writes through its form and buttons, and writes straight to the table.

/** Whether a row with this product shows within `timeout` ms. */
function showsProduct(page, product, timeout) {
  return page.waitForFunction(
    (name) => [...document.querySelectorAll('#purchase-list .purchase-product')].some((item) => item.textContent === name),
    product, { timeout }).then(() => true, () => false);
}

/**
 * Waits until the page's subscription runs: the socket is up once #live says so, and the server starts
 * the subscription on it a moment later. Until a purchase written straight to the table shows, another
 * is written; then they all leave the table (and the list) again.
 */
async function untilLive(page, userId) {
  const warmUps = [];
  for (let attempt = 0; ; attempt++) {
    assert.ok(attempt < 6, 'no purchase written straight to the table showed on the page');
    const at = T0 + 2 * MINUTE + 30_000 + attempt;
    warmUps.push(at);
    await putPurchase(userId, at, { product: `warm-up ${attempt}`, amount: 5 });
    if (await showsProduct(page, `warm-up ${attempt}`, 2_500)) break;
  }
  for (const at of warmUps) await deletePurchase(userId, at);
  await page.waitForFunction(() => ![...document.querySelectorAll('#purchase-list .purchase-product')]
    .some((item) => item.textContent.startsWith('warm-up')), null, { timeout: 3_000 });
}

/** How soon a purchase written straight to the table must show, once the page's subscription runs. */
const LIVE_WITHIN = 1_000;

const productsShown = (page) => page.$$eval('#purchase-list > [data-id] .purchase-product',
  (items) => items.map((item) => item.textContent));

/** Opens the page on a user and waits for the first page and the live connection. */
async function openLive(t, userId, query = '', beforeVisit = async () => {}) {
  const opened = await openPage(t, { width: 1280, height: 860 });
  await beforeVisit(opened.page);
  await visit(opened.page, `/?user=${encodeURIComponent(userId)}${query}`);
  await opened.page.waitForFunction((id) => document.querySelector('#user-picker')?.value === id, userId);
  await opened.page.locator('#purchase-list > [data-id]').first().waitFor();
  await opened.page.locator('#live[data-state="live"]').waitFor();
  // A reload or a navigation would lose this.
  await opened.page.evaluate(() => { window.sameDocument = true; });
  return opened;
}

async function assertSameDocument(page) {
  assert.equal(await page.evaluate(() => window.sameDocument), true, 'the page was reloaded');
}

async function assertWholeList(page, userId, order, what) {
  await scrollToEnd(page);
  const expected = (await directWalk(userId, { order })).map((node) => node.id);
  const ids = await listIds(page);
  assert.deepStrictEqual(ids.filter((id, index) => ids.indexOf(id) !== index), [], `${what}: a purchase shown twice`);
  assert.deepStrictEqual(expected.filter((id) => !ids.includes(id)), [], `${what}: purchases missing`);
  assert.deepStrictEqual(ids, expected, `${what}: the list differs from a direct walk of the connection`);
  assert.equal(await page.locator('#total').textContent(), String(expected.length), `${what}: the total`);
}

async function addThroughForm(page, product, category, amount) {
  await page.locator('#add-product').fill(product);
  await page.locator('#add-category').fill(category);
  await page.locator('#add-amount').fill(String(amount));
  await page.locator('#add-submit').click();
  await page.locator('#write-status[data-state="done"], #write-status[data-state="error"]').waitFor({ state: 'attached' });
  const status = page.locator('#write-status');
  assert.equal(await status.getAttribute('data-state'), 'done', `adding failed: ${await status.textContent()}`);
  return (await status.textContent()).trim();
}

test('live page: a purchase added with the form shows in place, a deleted one disappears, without reload; paging on repeats and skips nothing', { timeout: TEST_TIMEOUT }, async (t) => {
  const { screenshotDir } = requireSetup();
  const userId = await newUser('page-form', 45);
  // Newest first: a new purchase belongs on top, so it shows at once.
  const { page, context, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openLive(t, userId, '&order=DESC');
  try {
    const before = await listIds(page);
    assert.equal(before.length, 20);
    const total = Number(await page.locator('#total').textContent());

    assert.match(await addThroughForm(page, 'Desk lamp', 'home', 42.5), /Added “Desk lamp”\./);
    await page.waitForFunction(() => document.querySelector('#purchase-list > [data-id] .purchase-product')?.textContent === 'Desk lamp');
    const added = await listIds(page);
    assert.deepStrictEqual(added.slice(1), before, 'the new purchase is on top, the rest as it was');
    const row = page.locator('#purchase-list > [data-id]').first();
    assert.equal((await row.locator('.purchase-amount').textContent()).trim(), '$42.50');
    assert.equal((await row.locator('.purchase-category').textContent()).trim(), 'home');
    assert.equal(await page.locator('#total').textContent(), String(total + 1));
    await page.screenshot({ path: join(screenshotDir, 'live-added.png') });

    // Its own change arrives too (a moment later): still once.
    await page.waitForTimeout(700);
    assert.deepStrictEqual(await listIds(page), added, 'the change of the page\'s own write adds nothing');

    const doomed = page.locator('#purchase-list > [data-id]').nth(3);
    const doomedId = await doomed.getAttribute('data-id');
    const doomedProduct = (await doomed.locator('.purchase-product').textContent()).trim();
    await doomed.locator('.purchase-delete').click();
    await page.waitForFunction((id) => !document.querySelector(`#purchase-list > [data-id="${id}"]`), doomedId);
    // The row may leave with the live change before the mutation's own answer arrives: wait for that too.
    await page.waitForFunction((product) => document.querySelector('#write-status')?.textContent.includes(`Deleted “${product}”`), doomedProduct);
    assert.match((await page.locator('#write-status').textContent()).trim(), new RegExp(`Deleted “${doomedProduct}”`));
    assert.deepStrictEqual(await listIds(page), added.filter((id) => id !== doomedId));
    assert.equal(await page.locator('#total').textContent(), String(total));

    await assertWholeList(page, userId, 'DESC', 'after an add and a delete, scrolled to the end');
    await assertSameDocument(page);
    assertNoPageFetchedTwice();
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('live page: in ASC order a purchase added with the form comes with the page that holds it, once', { timeout: TEST_TIMEOUT }, async (t) => {
  const userId = await newUser('page-asc', 45);
  const { page, context, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openLive(t, userId);
  try {
    const before = await listIds(page);
    // Now: after every purchase shown while more pages follow: not shown until the list reaches it.
    assert.match(await addThroughForm(page, 'Late lamp', 'home', 3), /shows when the list reaches its place/);
    await page.waitForTimeout(700);
    assert.deepStrictEqual(await listIds(page), before);
    await assertWholeList(page, userId, 'ASC', 'scrolled to the end after an insert');
    assert.equal((await productsShown(page)).at(-1), 'Late lamp');

    // At the end of the list: shows at once, last.
    assert.match(await addThroughForm(page, 'Last lamp', 'home', 4), /Added “Last lamp”\./);
    await page.waitForFunction(() => [...document.querySelectorAll('#purchase-list .purchase-product')].at(-1)?.textContent === 'Last lamp');
    await assertWholeList(page, userId, 'ASC', 'after adding at the end');
    await assertSameDocument(page);
    assertNoPageFetchedTwice();
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('live page: a purchase written straight to the table shows at its place within a second, changes there, and leaves when deleted there', { timeout: TEST_TIMEOUT }, async (t) => {
  const { screenshotDir } = requireSetup();
  const userId = await newUser('page-live', 45);
  const { page, context, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openLive(t, userId);
  try {
    const before = await listIds(page);
    await untilLive(page, userId);
    assert.deepStrictEqual(await listIds(page), before);

    // Between the 6th and 7th purchase.
    const shows = (product, timeout) => showsProduct(page, product, timeout);
    let started = Date.now();
    await putPurchase(userId, T0 + 5 * MINUTE + 30_000, { product: 'Written elsewhere', category: 'direct', amount: 12 });
    assert.ok(await shows('Written elsewhere', LIVE_WITHIN), `not shown within ${LIVE_WITHIN} ms of its PutItem`);
    t.diagnostic(`shown ${Date.now() - started} ms after its PutItem was sent`);
    const products = await productsShown(page);
    assert.equal(products[6], 'Written elsewhere', 'shown at its place');
    assert.deepStrictEqual((await listIds(page)).filter((id) => !before.includes(id)).length, 1);
    await page.screenshot({ path: join(screenshotDir, 'live-direct-write.png') });

    // Changed there: the row shows the new amount.
    await setAmount(userId, T0 + 5 * MINUTE + 30_000, 13.25);
    await page.waitForFunction(() => document.querySelectorAll('#purchase-list > [data-id]')[6]
      ?.querySelector('.purchase-amount')?.textContent === '$13.25', null, { timeout: LIVE_WITHIN });

    started = Date.now();
    await deletePurchase(userId, T0 + 5 * MINUTE + 30_000);
    await page.waitForFunction(() => ![...document.querySelectorAll('#purchase-list .purchase-product')]
      .some((item) => item.textContent === 'Written elsewhere'), null, { timeout: LIVE_WITHIN });
    t.diagnostic(`gone ${Date.now() - started} ms after its DeleteItem was sent`);
    assert.deepStrictEqual(await listIds(page), before);

    // One more, then the whole list: each purchase once.
    await putPurchase(userId, T0 + 9 * MINUTE + 30_000, { product: 'Written elsewhere too', amount: 12 });
    assert.ok(await shows('Written elsewhere too', LIVE_WITHIN), `not shown within ${LIVE_WITHIN} ms of its PutItem`);
    await assertWholeList(page, userId, 'ASC', 'scrolled to the end after a direct write');
    await assertSameDocument(page);
    assertNoPageFetchedTwice();
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

test('live page: a dropped live connection starts again after the last change it saw: a purchase written meanwhile shows in place', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl } = requireSetup();
  const userId = await newUser('page-resume', 30);
  // The page's WebSocket goes through here: it can be dropped (as a server restart does, 1012) and
  // kept from reconnecting for a while.
  const routes = [];
  let refusing = false;
  const { page, context, pageErrors, assertNoForeignRequests } = await openLive(t, userId, '', (opened) => opened.routeWebSocket(
    `${baseUrl.replace(/^http/, 'ws')}/graphql`, (route) => {
      if (refusing) {
        route.close({ code: 1013, reason: 'Try Again Later' });
        return;
      }
      route.connectToServer();
      routes.push(route);
    }));
  try {
    await untilLive(page, userId);
    const before = await listIds(page);

    refusing = true;
    await routes.at(-1).close({ code: 1012, reason: 'Service Restart' });
    await page.locator('#live[data-state="reconnecting"]').waitFor();
    await putPurchase(userId, T0 + 3 * MINUTE + 30_000, { product: 'Written while away', amount: 8 });
    await page.waitForTimeout(1_000);
    assert.equal(await showsProduct(page, 'Written while away', 10), false, 'shown while the page had no connection');
    refusing = false;

    const started = Date.now();
    assert.ok(await showsProduct(page, 'Written while away', 20_000), 'the change made while the connection was down never showed');
    t.diagnostic(`shown ${Date.now() - started} ms after reconnecting was allowed (${routes.length} connections)`);
    assert.equal((await productsShown(page))[4], 'Written while away', 'shown at its place');
    assert.equal((await listIds(page)).length, before.length + 1);
    await page.locator('#live[data-state="live"]').waitFor();
    await assertSameDocument(page);
    assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
    assertNoForeignRequests();
  } finally {
    await context.close();
  }
});

// Drives the built pages (web/dist/, served by the Spring Boot server) in headless Chromium.
//
//   BASE_URL=http://127.0.0.1:8191 FIXTURES=/path/fixtures.json SCREENSHOT_DIR=/tmp/shots \
//     [CHROMIUM=/usr/bin/chromium] npm run test:browser
//
// Every request a page makes is recorded and must start with BASE_URL (data: and blob: URLs
// excepted); anything else is also aborted, so nothing can leave the machine.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { chromium } from 'playwright-core';

const TEST_TIMEOUT = 90_000;
const STEP_TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------------
// Environment: a missing variable makes every test FAIL with a clear message.

function loadSetup() {
  const problems = [];
  const baseUrl = (process.env.BASE_URL ?? '').replace(/\/+$/, '');
  if (!baseUrl) problems.push('BASE_URL is not set (the server\'s origin, e.g. http://127.0.0.1:8191)');
  else if (!/^https?:\/\/[^/]+$/.test(baseUrl)) problems.push(`BASE_URL=${baseUrl} must be an origin like http://127.0.0.1:8191`);
  const fixturesPath = process.env.FIXTURES;
  let fixtures;
  if (!fixturesPath) {
    problems.push('FIXTURES is not set (path of the JSON file written by the Java test)');
  } else {
    try {
      fixtures = JSON.parse(readFileSync(fixturesPath, 'utf8'));
      if (typeof fixtures.userId !== 'string' || !Array.isArray(fixtures.purchaseIds) || fixtures.purchaseIds.length === 0) {
        problems.push(`FIXTURES=${fixturesPath} needs "userId" and a non-empty "purchaseIds"`);
      }
    } catch (cause) {
      problems.push(`cannot read FIXTURES=${fixturesPath}: ${cause.message}`);
    }
  }
  const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) problems.push(`no Chromium at ${chromiumPath} (set CHROMIUM, or apt-get install chromium)`);
  if (problems.length) return { error: new Error(problems.join('; ')) };
  const screenshotDir = process.env.SCREENSHOT_DIR || join(tmpdir(), 'dynamo-relay-screenshots');
  mkdirSync(screenshotDir, { recursive: true });
  return { baseUrl, fixtures, chromiumPath, screenshotDir };
}

const setup = loadSetup();

function requireSetup() {
  if (setup.error) throw setup.error;
  return setup;
}

let browserPromise;

function browser() {
  const { chromiumPath } = requireSetup();
  browserPromise ??= chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return browserPromise;
}

after(async () => {
  if (browserPromise) await (await browserPromise).close();
});

/** A fresh context that records every request and aborts any that would leave BASE_URL. */
async function openPage(t, viewport) {
  const { baseUrl } = requireSetup();
  const context = await (await browser()).newContext({ viewport, serviceWorkers: 'block' });
  const requests = [];
  const foreign = [];
  const pageErrors = [];
  const isLocal = (url) => url === baseUrl || url.startsWith(`${baseUrl}/`)
    || url.startsWith('data:') || url.startsWith('blob:');
  const graphqlBodies = [];
  context.on('request', (request) => {
    requests.push(request.url());
    if (request.url() === `${baseUrl}/graphql` && request.method() === 'POST') graphqlBodies.push(request.postDataJSON());
    if (!isLocal(request.url())) foreign.push(request.url());
  });
  await context.route((url) => !isLocal(url.href), (route) => {
    foreign.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT);
  page.on('pageerror', (error) => pageErrors.push(error));
  page.on('console', (message) => {
    if (message.type() === 'error') t.diagnostic(`console error: ${message.text()}`);
  });
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
    },
  };
}

/** Scrolls like a reader (wheel + the sentinel into view) until #status says end, or fails. */
async function scrollToEnd(page) {
  const deadline = Date.now() + STEP_TIMEOUT;
  for (;;) {
    const state = await page.locator('#status').getAttribute('data-state');
    if (state === 'end') return;
    if (state === 'error') {
      throw new Error(`#status shows an error: ${await page.locator('#status').textContent()}`);
    }
    assert.ok(Date.now() < deadline, `no "end" state within ${STEP_TIMEOUT} ms (state ${state}, `
      + `${await page.locator('#purchase-list > [data-id]').count()} items)`);
    await page.mouse.wheel(0, 1200);
    await page.locator('#sentinel').evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(150);
  }
}

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
    + 'web/dist/index.html at / and web/dist/graphiql/index.html at /graphiql');
}

const listIds = (page) => page.$$eval('#purchase-list > [data-id]', (items) => items.map((item) => item.dataset.id));

test('infinite scroll: shows every purchase of the fixture user exactly once, in order', { timeout: TEST_TIMEOUT }, async (t) => {
  const { baseUrl, fixtures, screenshotDir } = requireSetup();
  const { page, context, requests, pageErrors, assertNoForeignRequests, assertNoPageFetchedTwice } = await openPage(t, { width: 1280, height: 860 });
  try {
    await visit(page, '/');
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

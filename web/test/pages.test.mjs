// Drives the page at / and GraphiQL on a schema the sample does not have (WebPagesIT serves
// src/test/resources/pages/: booksByAuthor kept live by bookChanges, and shelves read by a Scan), in
// headless Chromium.
//
//   BASE_URL=http://127.0.0.1:8191 FIXTURES=/path/pages-fixtures.json SCREENSHOT_DIR=/tmp/shots \
//     [CHROMIUM=/usr/bin/chromium] npm run test:pages
//
// FIXTURES (written by WebPagesIT): "author", "bookIds" (the author's books as a direct Query reads
// them), "shelfIds" (as a direct Scan reads them), "dynamodb": {"endpoint", "region", "booksTable"}.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { closeBrowser, loadSetup, openIsolatedPage, scrollToEnd as scrollListToEnd } from './chromium.mjs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { DeleteItemCommand, DynamoDBClient, PutItemCommand, UpdateItemCommand } = await import('@aws-sdk/client-dynamodb');

const TEST_TIMEOUT = 120_000;
/** How long a change written straight to the table may take to show (a bound on the wait, not a measure). */
const LIVE_WAIT = 10_000;

const setup = loadSetup((fixtures) => ['bookIds', 'shelfIds']
  .filter((key) => !Array.isArray(fixtures[key]) || fixtures[key].length === 0)
  .map((key) => `FIXTURES needs a non-empty "${key}"`));

function requireSetup() {
  if (setup.error) throw setup.error;
  return setup;
}

let dynamoDbClient;

function dynamoDb() {
  const { dynamodb } = requireSetup().fixtures;
  dynamoDbClient ??= new DynamoDBClient({
    endpoint: dynamodb.endpoint,
    region: dynamodb.region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return dynamoDbClient;
}

after(async () => {
  await closeBrowser();
  dynamoDbClient?.destroy();
});

/**
 * A fresh context that aborts any request leaving BASE_URL and records every /graphql answer, so that a
 * test can require that none held an error (the purchases page on this schema answered "Field 'users' in
 * type 'Query' is undefined").
 */
async function openPage(t) {
  const { baseUrl, chromiumPath } = requireSetup();
  const { page, context, foreign, pageErrors } = await openIsolatedPage(t, {
    baseUrl, chromiumPath, viewport: { width: 1280, height: 860 },
  });
  const graphql = [];
  page.on('response', async (response) => {
    if (response.url() !== `${baseUrl}/graphql` || response.request().method() !== 'POST') return;
    const request = response.request().postDataJSON();
    try {
      graphql.push({ request, status: response.status(), body: await response.json() });
    } catch {
      graphql.push({ request, status: response.status(), body: null });
    }
  });
  return {
    page,
    context,
    graphql,
    async visit(path) {
      const response = await page.goto(`${baseUrl}${path}`);
      assert.ok(response?.ok(), `GET ${path} answered ${response?.status()}`);
    },
    /** No uncaught error, no request elsewhere, and no /graphql answer with an error. */
    assertClean() {
      assert.deepStrictEqual(pageErrors.map(String), [], 'uncaught errors on the page');
      assert.deepStrictEqual(foreign, [], `requests left ${baseUrl}`);
      const failed = graphql.filter((exchange) => exchange.status !== 200 || !exchange.body || exchange.body.errors);
      assert.deepStrictEqual(failed.map((exchange) => JSON.stringify(exchange.body)), [], '/graphql answered errors');
    },
    /** Fails if one page (same query and variables) was requested twice. */
    assertNoPageFetchedTwice() {
      const pages = graphql.filter((exchange) => exchange.request?.operationName === 'ConnectionPage')
        .map((exchange) => JSON.stringify([exchange.request.query, exchange.request.variables]));
      assert.deepStrictEqual(pages.filter((key, index) => pages.indexOf(key) !== index), [], 'a page was requested twice');
    },
  };
}

const listIds = (page) => page.$$eval('#item-list > [data-id]', (items) => items.map((item) => item.dataset.id));
const fieldValues = (page, field) => page.$$eval(`#item-list > [data-id] [data-field="${field}"] dd`,
  (values) => values.map((value) => value.textContent));

const scrollToEnd = (page) => scrollListToEnd(page, '#item-list > [data-id]');

test('/ on another schema lists its connections, not the purchases page, and pages through a Scan to its end', { timeout: TEST_TIMEOUT }, async (t) => {
  const { fixtures, screenshotDir } = requireSetup();
  const opened = await openPage(t);
  const { page, context } = opened;
  try {
    await opened.visit('/');
    assert.equal(await page.title(), 'dynamo-relay · connections');
    assert.equal(await page.locator('#user-picker, #purchase-list').count(), 0, 'the purchases page is not shown');
    await page.locator('#connection-picker:not([disabled])').waitFor();
    const options = await page.$$eval('#connection-picker option', (all) => all.map((option) => [option.value, option.textContent]));
    assert.deepStrictEqual(options, [['shelves', 'shelves'], ['booksByAuthor', 'booksByAuthor · live']]);

    // shelves needs no argument: shown at once; every shelf once, in the order of a direct Scan.
    await page.locator('#item-list > [data-id]').first().waitFor();
    const first = page.locator('#item-list > [data-id]').first();
    assert.deepStrictEqual(await first.locator('[data-field]').evaluateAll((pairs) => pairs.map((pair) => pair.dataset.field)),
      ['id', 'shelfId', 'room']);
    await scrollToEnd(page);
    const ids = await listIds(page);
    t.diagnostic(`${ids.length} shelves`);
    assert.deepStrictEqual(ids, fixtures.shelfIds);
    assert.doesNotMatch(await page.locator('body').textContent(), /is undefined/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshotDir, 'connections-scan.png') });
    opened.assertNoPageFetchedTwice();
    opened.assertClean();
  } finally {
    await context.close();
  }
});

test('a connection with a required argument asks for it, then pages by scrolling: each item once, as a direct Query reads them', { timeout: TEST_TIMEOUT }, async (t) => {
  const { fixtures } = requireSetup();
  const opened = await openPage(t);
  const { page, context } = opened;
  try {
    await opened.visit('/');
    await page.locator('#connection-picker:not([disabled])').waitFor();
    await page.locator('#connection-picker').selectOption('booksByAuthor');
    await page.locator('#status[data-state="waiting"]').waitFor();
    assert.equal(await page.locator('#status').textContent(), 'Enter author to show booksByAuthor.');
    assert.equal(await page.locator('#item-list > [data-id]').count(), 0);
    assert.equal(await page.locator('#arg-author').getAttribute('required'), '');

    await page.locator('#arg-author').fill(fixtures.author);
    await page.locator('#show').click();
    await page.locator('#item-list > [data-id]').first().waitFor();
    assert.match(page.url(), new RegExp(`\\?connection=booksByAuthor&author=${fixtures.author}$`));
    await scrollToEnd(page);
    const ids = await listIds(page);
    t.diagnostic(`${ids.length} books`);
    assert.deepStrictEqual(ids, fixtures.bookIds);
    assert.equal(new Set(ids).size, ids.length, 'each item once');
    opened.assertNoPageFetchedTwice();
    opened.assertClean();
  } finally {
    await context.close();
  }
});

test('a live connection shows a book written straight to the table at its place, changes it there, and takes it out when deleted', { timeout: TEST_TIMEOUT }, async (t) => {
  const { fixtures, screenshotDir } = requireSetup();
  const { booksTable } = fixtures.dynamodb;
  const opened = await openPage(t);
  const { page, context } = opened;
  const key = (published) => ({ author: { S: fixtures.author }, published: { N: String(published) } });
  const put = (published, title) => dynamoDb().send(new PutItemCommand({
    TableName: booksTable, Item: { ...key(published), title: { S: title }, pages: { N: '1' } },
  }));
  const remove = (published) => dynamoDb().send(new DeleteItemCommand({ TableName: booksTable, Key: key(published) }));
  const shows = async (title, timeout = LIVE_WAIT) => {
    try {
      await page.waitForFunction((wanted) => [...document.querySelectorAll('#item-list [data-field="title"] dd')]
        .some((value) => value.textContent === wanted), title, { timeout });
      return true;
    } catch {
      return false;
    }
  };
  try {
    await opened.visit(`/?connection=booksByAuthor&author=${encodeURIComponent(fixtures.author)}`);
    await page.locator('#item-list > [data-id]').first().waitFor();
    await page.locator('#live[data-state="live"]').waitFor();
    await scrollToEnd(page);
    const before = await listIds(page);
    assert.deepStrictEqual(before, fixtures.bookIds);

    // The subscription sees what is written a moment after it starts: write until one shows.
    const warmUps = [];
    for (let attempt = 0; ; attempt++) {
      assert.ok(attempt < 6, 'no book written straight to the table showed on the page');
      warmUps.push(900_000 + attempt);
      await put(900_000 + attempt, `warm-up ${attempt}`);
      if (await shows(`warm-up ${attempt}`, 2_500)) break;
    }
    for (const published of warmUps) await remove(published);
    await page.waitForFunction(() => ![...document.querySelectorAll('#item-list [data-field="title"] dd')]
      .some((value) => value.textContent.startsWith('warm-up')), null, { timeout: LIVE_WAIT });
    assert.deepStrictEqual(await listIds(page), before);

    // Between the 6th and the 7th book (published 1_000_500 and 1_000_600).
    const published = 1_000_550;
    let started = Date.now();
    await put(published, 'Written elsewhere');
    assert.ok(await shows('Written elsewhere'), `not shown within ${LIVE_WAIT} ms of its PutItem`);
    t.diagnostic(`shown ${Date.now() - started} ms after its PutItem was sent`);
    const titles = await fieldValues(page, 'title');
    assert.equal(titles[6], 'Written elsewhere', 'shown at its place');
    assert.equal((await listIds(page)).length, before.length + 1);
    await page.locator('#item-list > [data-id]').nth(4).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshotDir, 'connections-live.png') });

    await dynamoDb().send(new UpdateItemCommand({
      TableName: booksTable, Key: key(published), UpdateExpression: 'SET title = :t',
      ExpressionAttributeValues: { ':t': { S: 'Changed elsewhere' } },
    }));
    assert.ok(await shows('Changed elsewhere'), 'the change shows');
    assert.equal((await fieldValues(page, 'title'))[6], 'Changed elsewhere', 'changed at its place');

    started = Date.now();
    await remove(published);
    await page.waitForFunction(() => ![...document.querySelectorAll('#item-list [data-field="title"] dd')]
      .some((value) => value.textContent === 'Changed elsewhere'), null, { timeout: LIVE_WAIT });
    t.diagnostic(`gone ${Date.now() - started} ms after its DeleteItem was sent`);
    assert.deepStrictEqual(await listIds(page), before);
    opened.assertNoPageFetchedTwice();
    opened.assertClean();
  } finally {
    await context.close();
  }
});

test('GraphiQL starts with a ready query on a connection of the schema served, which runs without errors', { timeout: TEST_TIMEOUT }, async (t) => {
  const { screenshotDir } = requireSetup();
  const opened = await openPage(t);
  const { page, context } = opened;
  try {
    await opened.visit('/graphiql');
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
    const editorText = () => page.evaluate(() => document.querySelector('.graphiql-query-editor .view-lines')
      ?.textContent?.replace(/\u00a0/g, ' ') ?? '');
    await page.waitForFunction(() => /query\s+Shelves/.test(
      document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? ''));
    const query = await editorText();
    assert.match(query, /shelves\(first: 5, after: \$after\)/);
    assert.doesNotMatch(query, /user\(|users|purchases/);
    await page.waitForFunction(() => /"after"/.test(document.querySelector('.graphiql-editor-tool .view-lines')?.textContent ?? ''));

    await page.locator('.graphiql-execute-button').click();
    await page.waitForFunction(() => /edges/.test(document.querySelector('.graphiql-response')?.textContent ?? ''));
    const response = (await page.locator('.graphiql-response .view-lines').textContent()).replace(/\u00a0/g, ' ');
    assert.match(response, /"data"/);
    assert.match(response, /"shelfId"/);
    assert.doesNotMatch(response, /"errors"/);
    const run = opened.graphql.find((exchange) => /shelves\(first: 5/.test(exchange.request?.query ?? ''));
    assert.ok(run, 'the ready query was sent');
    assert.equal(run.body.errors, undefined);
    assert.equal(run.body.data.shelves.edges.length, 5);
    await page.screenshot({ path: join(screenshotDir, 'graphiql-own-schema.png') });

    // Tabs stored while the sample was served (by this build, or by one that kept them under GraphiQL's own
    // key) do not come back on this schema: its tabs are stored under a key of their own.
    const stored = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.endsWith('graphiql:tabState')));
    assert.equal(stored.length, 1, `tab states: ${stored}`);
    assert.match(stored[0], /^dynamo-relay:own-[0-9a-z]+:graphiql:tabState$/);
    await page.evaluate((key) => {
      const sampleTabs = localStorage.getItem(key).replace(/shelves\(first: 5, after: \$after\)/g, 'user(userId: \\"user-01\\")')
        .replace(/query Shelves/g, 'query Purchases');
      localStorage.removeItem(key);
      localStorage.setItem('graphiql:tabState', sampleTabs);
      localStorage.setItem('dynamo-relay:sample:graphiql:tabState', sampleTabs);
    }, stored[0]);
    await page.reload();
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();
    await page.waitForFunction(() => /query\s+Shelves/.test(
      document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? ''));
    assert.doesNotMatch(await editorText(), /user\(/);
    opened.assertClean();
  } finally {
    await context.close();
  }
});

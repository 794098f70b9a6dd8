// What the browser tests share (browser.test.mjs on the purchases page, pages.test.mjs on any schema's
// connections and GraphiQL): their set-up from the environment, one headless Chromium, a page that cannot
// reach beyond BASE_URL, and scrolling a list to its end like a reader.
//
//   BASE_URL=http://127.0.0.1:8191 FIXTURES=/path/fixtures.json SCREENSHOT_DIR=/tmp/shots [CHROMIUM=/usr/bin/chromium]
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

export const STEP_TIMEOUT = 60_000;

/**
 * The set-up from the environment: { baseUrl, fixtures, chromiumPath, screenshotDir }, or { error } saying
 * all that is missing (a test then FAILS with it). `fixtureProblems(fixtures, path)` lists what the test's
 * FIXTURES lack.
 */
export function loadSetup(fixtureProblems) {
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
      problems.push(...fixtureProblems(fixtures, fixturesPath));
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

let browserPromise;

/** The one headless Chromium of the test file, launched at first use. */
export function browser(chromiumPath) {
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

export async function closeBrowser() {
  if (browserPromise) await (await browserPromise).close();
}

/**
 * A page in a fresh context of `browser(chromiumPath)`, whose requests that would leave `baseUrl` (data: and
 * blob: URLs excepted) are aborted and listed in `foreign`; uncaught errors go to `pageErrors`, console
 * errors to the test's diagnostics.
 */
export async function openIsolatedPage(t, { baseUrl, chromiumPath, viewport }) {
  const context = await (await browser(chromiumPath)).newContext({ viewport, serviceWorkers: 'block' });
  const isLocal = (url) => url === baseUrl || url.startsWith(`${baseUrl}/`)
    || url.startsWith('data:') || url.startsWith('blob:');
  const foreign = [];
  const pageErrors = [];
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
  return { page, context, isLocal, foreign, pageErrors };
}

/**
 * Scrolls like a reader (wheel, and the sentinel into view) until #status says end, or fails (on an error,
 * on arguments still to enter, or after STEP_TIMEOUT); `items` selects the list's rows, for the message.
 */
export async function scrollToEnd(page, items) {
  const deadline = Date.now() + STEP_TIMEOUT;
  for (;;) {
    const state = await page.locator('#status').getAttribute('data-state');
    if (state === 'end') return;
    if (state === 'error' || state === 'waiting') {
      throw new Error(`#status shows ${state}: ${await page.locator('#status').textContent()}`);
    }
    assert.ok(Date.now() < deadline, `no "end" state within ${STEP_TIMEOUT} ms (state ${state}, `
      + `${await page.locator(items).count()} items)`);
    await page.mouse.wheel(0, 1200);
    await page.locator('#sentinel').evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await page.waitForTimeout(150);
  }
}

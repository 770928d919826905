// Time from clicking Login to the first paint of the main layout with its menus, measured inside the page
// (performance.now() at the click, then the first animation frame after the header's systems, the side
// menu and the page tab are in the DOM), and the JavaScript the browser fetched by then.
// The functions passed to page.evaluate run in the browser:
/* global window, document, MutationObserver, requestAnimationFrame */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { hostBenchmarkIndex } from './lighthouse.mjs';

const layoutReady = `
  document.querySelector('.campus-top-menu [data-module]') &&
  document.querySelector('.campus-side-menu a') &&
  document.querySelector('.campus-page-tabs [data-tab-path]')
`;

/** Resolves once the page has fetched nothing for 500 ms and then has an idle moment (runs in the browser). */
function quietPage() {
  return new Promise((resolve) => {
    let fetched = -1;
    let since = performance.now();
    const check = () => {
      const count = performance.getEntriesByType('resource').length;
      if (count !== fetched) {
        fetched = count;
        since = performance.now();
      }
      if (performance.now() - since >= 500) window.requestIdleCallback(() => resolve(), { timeout: 2000 });
      else setTimeout(check, 50);
    };
    check();
  });
}

async function oneRun(browser, baseUrl, account) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const scripts = new Map();
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    try {
      const body = await res.body();
      scripts.set(new URL(res.url()).pathname, { raw: body.length, gzip: gzipSync(body).length });
    } catch {
      // no body
    }
  });
  try {
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.getByLabel('Username').fill(account.account);
    await page.getByLabel('Password').fill(account.password);
    // the shell loads the signed-in code while the form is being filled in; a person typing a password
    // takes longer than that, so the click comes once the page is quiet again: nothing fetched for 500 ms, then
    // an idle moment (waitForLoadState('networkidle') would not wait: the page was idle once, after loading)
    await page.evaluate(quietPage);
    const submit = page.getByRole('button', { name: 'Log in' });
    await page.evaluate((ready) => {
      const check = new Function(`return Boolean(${ready})`);
      window.__bench = new Promise((resolve) => {
        document.addEventListener(
          'click',
          () => {
            const start = performance.now();
            const observer = new MutationObserver(() => {
              if (!check()) return;
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - start));
            });
            observer.observe(document.body, { childList: true, subtree: true });
          },
          { capture: true, once: true },
        );
      });
    }, layoutReady);
    await submit.click();
    const ms = await page.evaluate(() => window.__bench);
    await page.waitForLoadState('networkidle');
    return { ms, scripts: [...scripts.values()] };
  } finally {
    await context.close();
  }
}

/** Lighthouse's CPU benchmark index of this browser's machine now, in a page of its own. */
async function machineIndex(browser) {
  const page = await browser.newPage();
  try {
    return await hostBenchmarkIndex(page);
  } finally {
    await page.close();
  }
}

/**
 * `runs` cold sign-ins (a fresh browser context each); the first warms the server and is not counted. The machine's
 * CPU benchmark index, before and after, goes with the times: they are wall-clock times on this machine (the
 * browser and the server on it), and follow its speed.
 */
export async function measureSignInToLayout({ baseUrl, account, runs, executablePath, args }) {
  const browser = await chromium.launch({ executablePath, args });
  try {
    const indexBefore = await machineIndex(browser);
    await oneRun(browser, baseUrl, account);
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await oneRun(browser, baseUrl, account));
    const times = results.map((r) => r.ms).sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    const last = results.at(-1).scripts;
    const js = { files: last.length, raw: last.reduce((n, s) => n + s.raw, 0), gzip: last.reduce((n, s) => n + s.gzip, 0) };
    return { times, median, js, machineIndexes: [indexBefore, await machineIndex(browser)] };
  } finally {
    await browser.close();
  }
}

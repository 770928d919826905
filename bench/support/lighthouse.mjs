// Lighthouse (from the npm registry) in Debian's Chromium on /login and on the signed-in layout, with its mobile
// settings (a mid-range phone: 4x CPU slowdown, a slow 4G link, simulated) and its desktop ones. The layout is
// measured as a signed-in user reloading it: the session is made in the same browser first and Lighthouse is
// told to keep the storage. Keeping the storage keeps the browser's cache too, which holds the shell's files from
// signing in (the login page loads the layout's code while the form is filled in): the returning user's case. The
// layout on a phone with an empty cache (the first visit after an upgrade) is measured as well, the cache emptied
// before each run and the session kept.
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'];
/** The figures a report row shows, by Lighthouse audit id. */
const audits = {
  fcp: 'first-contentful-paint',
  lcp: 'largest-contentful-paint',
  tbt: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  bootup: 'bootup-time',
  longTasks: 'long-tasks',
};

function summarise(lhr) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id) => lhr.audits[id]?.numericValue ?? null;
  const failing = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode !== 'informative' && audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual')
    .map((audit) => audit.id);
  return {
    scores: Object.fromEntries(categories.map((id) => [id, score(id)])),
    fcp: value(audits.fcp),
    lcp: value(audits.lcp),
    tbt: value(audits.tbt),
    cls: value(audits.cls),
    bootup: value(audits.bootup),
    longTasks: lhr.audits[audits.longTasks]?.details?.items?.length ?? null,
    failing,
    warnings: lhr.runWarnings ?? [],
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

/** One Lighthouse run of `url` (`flags` and `config` as Lighthouse takes them), summarised; throws when it gave no figure. */
export async function lighthouseRun(url, flags, config) {
  const result = await lighthouse(url, { output: 'json', logLevel: 'error', ...flags }, config);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
  return summarise(result.lhr);
}

/** Signs `account` in on the login page in `context`, leaving the token in its storage; answers the page it lands on. */
export async function signInThere(context, baseUrl, account) {
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle' });
    await page.locator('input[name="username"]').fill(account.account);
    await page.locator('input[name="password"]').fill(account.password);
    await page.locator('button[type="submit"]').click();
    await page.locator('.campus-layout').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return new URL(page.url()).pathname;
  } finally {
    await page.close();
  }
}

/** The run whose total blocking time is the median of `results` (an odd count), with the ranges of all of them. */
function medianRun(results) {
  const sorted = [...results].sort((a, b) => (a.tbt ?? 0) - (b.tbt ?? 0));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  const scores = results.map((r) => r.scores.performance);
  return { ...median, runs: results.length, tbtRange: [sorted[0].tbt, sorted.at(-1).tbt], performanceRange: [Math.min(...scores), Math.max(...scores)] };
}

/**
 * Lighthouse runs on each page in each form factor, `runs` times each; the run with the median total blocking time
 * is kept, with the range of all (on a shared machine one run's blocking time can be twice another's).
 * Answers { login: { mobile, desktop }, layout: { path, mobile, desktop, emptyCacheMobile } }.
 */
export async function measureLighthouse({ baseUrl, account, executablePath, args, port, runs = 3 }) {
  // the browser's own profile (not a fresh context): the tabs Lighthouse opens share the signed-in storage
  const profile = mkdtempSync(path.join(tmpdir(), 'campus-bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, args: [...args, `--remote-debugging-port=${port}`], locale: 'en-US' });
  const cachePage = await context.newPage();
  const devtools = await context.newCDPSession(cachePage);
  const run = async (url, formFactor, keepStorage, emptyCache) => {
    if (emptyCache) await devtools.send('Network.clearBrowserCache');
    return lighthouseRun(url, { port, onlyCategories: categories, disableStorageReset: keepStorage }, formFactor === 'desktop' ? desktopConfig : undefined);
  };
  const median = async (url, formFactor, keepStorage, emptyCache = false) => {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await run(url, formFactor, keepStorage, emptyCache));
    return medianRun(results);
  };
  try {
    const login = { mobile: await median(`${baseUrl}/login`, 'mobile', false), desktop: await median(`${baseUrl}/login`, 'desktop', false) };
    const layoutPath = await signInThere(context, baseUrl, account);
    const layoutUrl = `${baseUrl}${layoutPath}`;
    const layout = {
      path: layoutPath,
      mobile: await median(layoutUrl, 'mobile', true),
      desktop: await median(layoutUrl, 'desktop', true),
      emptyCacheMobile: await median(layoutUrl, 'mobile', true, true),
    };
    return { login, layout };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

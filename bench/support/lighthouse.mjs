// Lighthouse (from the npm registry) in Debian's Chromium on /login and on the signed-in layout, with its mobile
// settings (a mid-range phone: 4x CPU slowdown, a slow 4G link, simulated) and its desktop ones. The layout is
// measured as a signed-in user reloading it: the session is made in the same browser first and Lighthouse is
// told to keep the storage. Keeping the storage keeps the browser's cache too, which holds the shell's files from
// signing in (the login page loads the layout's code while the form is filled in): the returning user's case. The
// layout on a phone with an empty cache (the first visit after an upgrade) is measured as well, the cache emptied
// before each run and the session kept.
//
// Lighthouse slows the CPU by a fixed 4x for its mobile figures, meant to bring a high-end desktop (its CPU benchmark
// index 1,500-2,000) down to a mid-range phone (docs/throttling.md in Lighthouse: calibrate the multiplier when the
// host is not such a desktop). These machines are shared: their index has been anywhere from 957 to 3,850, so a fixed
// 4x emulated anything from a phone of index 240 to one of 960, and a figure said more about the machine than about
// the shell. So each mobile run is calibrated: the host's index is measured in the browser just before it, and the
// multiplier is the one that brings it to the phone Lighthouse's 4x aims at. Lighthouse's fixed 4x runs as well, for
// comparison with earlier reports.
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { throttling as lighthouseThrottling } from 'lighthouse/core/config/constants.js';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
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
    cpuMultiplier: lhr.configSettings?.throttling?.cpuSlowdownMultiplier ?? null,
  };
}

/** The phone the mobile runs emulate, as Lighthouse's CPU benchmark index: its 4x applied to the middle of a high-end desktop's 1,500-2,000. */
export const midRangePhoneIndex = 1750 / 4;

/** The CPU slowdown that makes a host of `hostIndex` a phone of `midRangePhoneIndex` (never below 1: a slower host cannot be sped up). */
export function phoneCpuMultiplier(hostIndex) {
  if (!Number.isFinite(hostIndex) || hostIndex <= 0) throw new Error(`the host's CPU benchmark index ${hostIndex} is not a positive number`);
  return Math.max(1, Math.round((hostIndex / midRangePhoneIndex) * 10) / 10);
}

/** Lighthouse's CPU benchmark index of the browser behind `page`, measured now (about one second). */
export async function hostBenchmarkIndex(page) {
  return page.evaluate(pageFunctions.computeBenchmarkIndex);
}

/** Lighthouse's mobile settings with the CPU slowdown that makes this host, measured in `page` now, a mid-range phone. */
export async function midRangePhoneConfig(page) {
  const cpuSlowdownMultiplier = phoneCpuMultiplier(await hostBenchmarkIndex(page));
  return { extends: 'lighthouse:default', settings: { throttling: { ...lighthouseThrottling.mobileSlow4G, cpuSlowdownMultiplier } } };
}

/** The phone a run emulated: the index Lighthouse measured on the host during the run, slowed by the run's multiplier. */
export const emulatedIndex = (run) => (run.benchmarkIndex && run.cpuMultiplier ? run.benchmarkIndex / run.cpuMultiplier : null);

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
 * Answers { login: { phone, mobile, desktop }, layout: { path, phone, mobile, desktop, emptyCachePhone } }: `phone` is
 * mobile calibrated to a mid-range phone, `mobile` Lighthouse's fixed 4x.
 */
export async function measureLighthouse({ baseUrl, account, executablePath, args, port, runs = 5 }) {
  // the browser's own profile (not a fresh context): the tabs Lighthouse opens share the signed-in storage
  const profile = mkdtempSync(path.join(tmpdir(), 'campus-bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, args: [...args, `--remote-debugging-port=${port}`], locale: 'en-US' });
  const cachePage = await context.newPage();
  const devtools = await context.newCDPSession(cachePage);
  // formFactor: 'phone' (mobile, calibrated to a mid-range phone), 'mobile' (Lighthouse's fixed 4x) or 'desktop'
  const configFor = async (formFactor) => (formFactor === 'desktop' ? desktopConfig : formFactor === 'phone' ? midRangePhoneConfig(cachePage) : undefined);
  const run = async (url, formFactor, keepStorage, emptyCache) => {
    if (emptyCache) await devtools.send('Network.clearBrowserCache');
    return lighthouseRun(url, { port, onlyCategories: categories, disableStorageReset: keepStorage }, await configFor(formFactor));
  };
  const median = async (url, formFactor, keepStorage, emptyCache = false) => {
    const results = [];
    for (let i = 0; i < runs; i += 1) results.push(await run(url, formFactor, keepStorage, emptyCache));
    return medianRun(results);
  };
  try {
    const login = {
      phone: await median(`${baseUrl}/login`, 'phone', false),
      mobile: await median(`${baseUrl}/login`, 'mobile', false),
      desktop: await median(`${baseUrl}/login`, 'desktop', false),
    };
    const layoutPath = await signInThere(context, baseUrl, account);
    const layoutUrl = `${baseUrl}${layoutPath}`;
    const layout = {
      path: layoutPath,
      phone: await median(layoutUrl, 'phone', true),
      mobile: await median(layoutUrl, 'mobile', true),
      desktop: await median(layoutUrl, 'desktop', true),
      emptyCachePhone: await median(layoutUrl, 'phone', true, true),
    };
    return { login, layout };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

// `npm run bench:compare -- <shell-dist-A> <shell-dist-B>`: Lighthouse mobile on the signed-in layout for two
// builds of the shell, each signed in and reloaded twice in turn, and whether B's total blocking time is lower than
// A's more often than chance would make it, on each of the two visits. On a shared machine one run's blocking time
// can be twice another's and the machine's speed drifts over minutes, so a single run of each says nothing;
// alternating runs see the same drift. Each run is calibrated to a mid-range phone as `npm run bench`'s phone rows
// are (bench/support/lighthouse.mjs): the CPU slowdown follows the host's speed measured just before it.
// Each dist is a built `apps/shell/dist` copied aside (`npm run build`, then `cp -r apps/shell/dist /tmp/a`).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { startProductServer } from '../bench/support/servers.mjs';
import { emulatedIndex, lighthouseRun, midRangePhoneConfig, signInThere } from '../bench/support/lighthouse.mjs';
import { benchChromiumArgs as chromiumArgs, chromiumPath, ensureSystemDeps } from './system-deps.mjs';

const account = { account: 'staff', password: 'Staff#2026' };

/** Two-sided sign test: the chance of a split at least as uneven as `wins` of `pairs` if neither build were faster. */
function signTestP(wins, pairs) {
  if (pairs === 0) return 1;
  const tail = Math.min(wins, pairs - wins);
  let choose = 1;
  let sum = 0;
  for (let i = 0; i <= tail; i += 1) {
    sum += choose;
    choose = (choose * (pairs - i)) / (i + 1);
  }
  return Math.min(1, (2 * sum) / 2 ** pairs);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The two visits measured after a sign-in, as `npm run bench` makes them (the median of three reloads): the first
 * reload is the scripts' second load, when V8 writes their code caches on the main thread; the next is a returning
 * visit, which writes none. Lighthouse opens each run in a tab of its own, and in a new tab this Chromium has read
 * none of those caches (every script parsed again; a reload in the same tab reads them): both visits parse and
 * compile all the layout's code.
 */
const visits = ['second', 'returning'];

/** Lighthouse on a mid-range phone (calibrated) on the layout of the server at `baseUrl`, each visit in turn, in a browser profile of its own; `failed` says why a visit gave no figure. */
async function layoutRuns(baseUrl, port) {
  const profile = mkdtempSync(path.join(tmpdir(), 'campus-bench-compare-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: [...chromiumArgs, `--remote-debugging-port=${port}`], locale: 'en-US' });
  const failure = (error) => ({ failed: error instanceof Error ? error.message.split('\n')[0] : String(error) });
  const runs = {};
  try {
    const layoutPath = await signInThere(context, baseUrl, account);
    const calibrationPage = await context.newPage();
    for (const visit of visits) {
      // a run that gave no figure costs that visit of this pair, not the other visit or the comparison
      runs[visit] = await midRangePhoneConfig(calibrationPage)
        .then((config) => lighthouseRun(`${baseUrl}${layoutPath}`, { port, onlyCategories: ['performance'], disableStorageReset: true }, config))
        .catch(failure);
    }
  } catch (error) {
    // a sign-in that timed out or a browser that went away costs this pair
    for (const visit of visits) runs[visit] ??= failure(error);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return runs;
}

const describeRun = (run) => (run.failed ? `failed (${run.failed})` : `TBT ${Math.round(run.tbt)} ms, performance ${run.scores.performance}, CPU index ${run.benchmarkIndex} slowed ${run.cpuMultiplier}x to ${Math.round(emulatedIndex(run))}`);

/** The medians of A and B over the pairs that gave both figures, and how often B was the lower. */
function report(visit, runs) {
  const counted = runs[0].length;
  console.log(`\nLighthouse on a mid-range phone, signed-in layout, ${visit} visit, ${counted} pairs alternately`);
  if (counted === 0) {
    console.log('no pair gave both figures: see the reasons above');
    return;
  }
  const wins = runs[1].filter((run, i) => run.tbt < runs[0][i].tbt).length;
  runs.forEach((list, i) => console.log(`${'AB'[i]}: total blocking time median ${Math.round(median(list.map((r) => r.tbt)))} ms (${Math.round(Math.min(...list.map((r) => r.tbt)))}-${Math.round(Math.max(...list.map((r) => r.tbt)))}), performance median ${median(list.map((r) => r.scores.performance))}`));
  console.log(`B lower in ${wins} of ${counted} pairs; sign test p = ${signTestP(wins, counted).toFixed(3)} (under 0.05: the difference between the builds is not the machine's chance)`);
}

async function main() {
  const [distA, distB] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
  const pairs = Number(process.env.BENCH_COMPARE_RUNS ?? 10);
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`BENCH_COMPARE_RUNS=${process.env.BENCH_COMPARE_RUNS}: give a whole number of pairs, 1 or more`);
  if (!distA || !distB) throw new Error('usage: npm run bench:compare -- <shell-dist-A> <shell-dist-B> (built apps/shell/dist folders)');
  for (const dist of [distA, distB]) if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist}: no index.html; give a built apps/shell/dist folder`);
  ensureSystemDeps();
  const servers = [await startProductServer(6397, { SHELL_DIST: path.resolve(distA) }), await startProductServer(6398, { SHELL_DIST: path.resolve(distB) })];
  const runs = Object.fromEntries(visits.map((visit) => [visit, [[], []]]));
  try {
    for (let pair = 0; pair < pairs; pair += 1) {
      // A first in even pairs, B first in odd ones: neither always runs on the warmer machine
      const order = pair % 2 ? [1, 0] : [0, 1];
      const got = [];
      for (const which of order) got[which] = await layoutRuns(servers[which].baseUrl, 9345 + which);
      for (const visit of visits) {
        console.log(`pair ${pair + 1}, ${visit} visit: ${got.map((build, i) => `${'AB'[i]} ${describeRun(build[visit])}`).join(' | ')}`);
        // a pair counts only when both runs gave a figure
        if (!got[0][visit].failed && !got[1][visit].failed) got.forEach((build, i) => runs[visit][i].push(build[visit]));
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
  for (const visit of visits) report(visit, runs[visit]);
  if (visits.every((visit) => runs[visit][0].length === 0)) throw new Error('no pair gave both figures: see the reasons above');
}

await main();

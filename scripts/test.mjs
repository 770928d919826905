// `npm test`: every check of the project in one run, ending with one line `N passed, N failed`.
// Steps: type check, lint, unit + API + LDAP tests (vitest; the API suite also runs on PostgreSQL
// when DATABASE_URL is set), shell build (which makes the card issuer's downloads), the card issuer downloads run as
// an operator runs them (the Windows one under Wine 10 in a cached Debian 13 root, the Linux one on the host's pcscd),
// browser tests (Playwright in Debian's Chromium).
// `npm test -- --with-node24` (what CI runs) also runs the server, card-issuer and crypto suites on Node 24 (scripts/node24.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ensureSystemDeps } from './system-deps.mjs';
import { startWithNode24, withNode24 } from './node24.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = path.join(root, '.tmp', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

ensureSystemDeps();

let passed = 0;
let failed = 0;
const failures = [];

const timings = [];

/** How long each step took, printed at the end: CI has a time budget, and this says where it goes. */
function timed(title, work) {
  const started = Date.now();
  try {
    return work();
  } finally {
    timings.push(`${title} ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

/** Runs a step's work (it returns an exit status) under its title, timed; whether it exited 0. */
function step(title, shown, work) {
  console.log(`\n=== ${title}${shown ? `: ${shown}` : ''}`);
  try {
    return timed(title, work) === 0;
  } catch (error) {
    console.error(`${title}: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function run(title, command, args, env = {}) {
  return step(title, `${command} ${args.join(' ')}`, () => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status);
}

const vitestCounts = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numTotalTestSuites > 0 && r.numTotalTests === 0 ? 1 : 0),
});

/** Which tests failed and the first line of why: printed last, so the end of a long CI log names them. */
const failedTests = [];
const firstLine = (text) => stripVTControlCharacters(String(text ?? '')).split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
const relative = (file) => path.relative(root, file);

function noteVitestFailures(step, report) {
  for (const file of report.testResults ?? []) {
    if (file.status === 'failed' && (file.assertionResults ?? []).every((test) => test.status !== 'failed')) failedTests.push(`${step}: ${relative(file.name)}: ${firstLine(file.message)}`);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failedTests.push(`${step}: ${relative(file.name)} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}

function notePlaywrightFailures(step, report) {
  const walk = (suiteNode, titles) => {
    for (const spec of suiteNode.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failedTests.push(`${step}: ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suiteNode.suites ?? []) walk(child, suiteNode.title && !suiteNode.title.endsWith('.ts') ? [...titles, suiteNode.title] : titles);
  };
  for (const top of report.suites ?? []) walk(top, []);
  for (const error of report.errors ?? []) failedTests.push(`${step}: ${firstLine(error.message)}`);
}

/** A step that is one check: it passes or fails as a whole. */
function check(title, command, args) {
  if (run(title, command, args)) passed += 1;
  else {
    failed += 1;
    failures.push(title);
  }
}

/**
 * A step that runs many tests and reports their counts in a JSON file: adds the report's counts and failures to the
 * run's totals; `ok` is whether its runner exited 0.
 */
function suite(title, reportFile, ok, count = vitestCounts, noteFailures = noteVitestFailures) {
  let counts;
  try {
    const report = JSON.parse(readFileSync(reportFile, 'utf8'));
    counts = count(report);
    noteFailures(title, report);
  } catch {
    counts = { passed: 0, failed: 1 };
  }
  if (!ok && counts.failed === 0) counts.failed = 1; // the runner failed outside any test
  passed += counts.passed;
  failed += counts.failed;
  if (counts.failed > 0) failures.push(`${title} (${counts.failed})`);
}

const withNode24Suites = process.argv.includes('--with-node24');
const vitest = path.join('node_modules', 'vitest', 'vitest.mjs');
const node24Args = (projects, report) => [vitest, 'run', ...projects.flatMap((name) => ['--project', name]), '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];

// What the runtime changes: the server (node:sqlite instead of better-sqlite3 on Node >= 22.16, LDAP, argon2), the
// card issuer and the crypto packages, on the embedded database. The shell and the sub-app are browser code that the
// Node 20 run already tests in jsdom, and PostgreSQL's SQL is the same under either runtime. The server's Node 24 run
// starts first and goes on beside the type check, the lint (one core each) and the Node 20 run: it shares nothing
// with them (its own temp folders, SQLite, system-chosen ports), and the server's files wait for their child
// processes, databases and timers much of the time (a serial run kept one core 70 % busy): the runs fill each
// other's idle time. The card issuer's files need the one pcscd of the machine alone, so its Node 24 run comes after.
let node24Beside = null;
const node24Title = 'server, crypto and SDK tests on Node 24 (beside the steps up to the Node 20 run)';
const node24Report = path.join(reports, 'vitest-node24.json');
const node24Log = path.join(reports, 'vitest-node24.log');
if (withNode24Suites) {
  try {
    node24Beside = { started: Date.now(), ...startWithNode24(root, node24Args(['server', 'card-crypto', 'subapp-sdk'], node24Report), node24Log, { DATABASE_URL: '' }) };
    console.log(`\n=== ${node24Title}: started on Node ${node24Beside.version}, its output in ${relative(node24Log)}`);
  } catch (error) {
    console.error(`${node24Title}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

check('type check', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npm', ['run', '--silent', 'lint']);

const vitestTitle = 'unit, API and LDAP tests';
const vitestReport = path.join(reports, 'vitest.json');
suite(vitestTitle, vitestReport, run(vitestTitle, 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]));

if (withNode24Suites) {
  let ok = false;
  if (node24Beside) {
    const status = await node24Beside.done;
    timings.push(`${node24Title} ${Math.round((Date.now() - node24Beside.started) / 1000)} s (beside the other steps)`);
    console.log(`\n=== ${node24Title}: exit ${status}\n${readFileSync(node24Log, 'utf8')}`);
    ok = status === 0;
  }
  suite(node24Title, node24Report, ok);

  const issuerTitle = 'card issuer tests on Node 24';
  const issuerReport = path.join(reports, 'vitest-node24-issuer.json');
  suite(issuerTitle, issuerReport, step(issuerTitle, '', () => withNode24(root, node24Args(['card-issuer'], issuerReport), { DATABASE_URL: '' })));
}

if (run('shell build', 'npm', ['run', '--silent', 'build'])) {
  passed += 1;
  // the archives the build just made, exactly as built (apps/card-issuer/test/downloads); the first run on a machine
  // also makes the Wine root (scripts/wine-lab/wine-root.mjs, about 2 minutes)
  const downloadsTitle = 'card issuer downloads (Wine 10, pcscd)';
  const downloadsReport = path.join(reports, 'vitest-downloads.json');
  const downloadsArgs = ['vitest', 'run', '-c', 'apps/card-issuer/downloads.vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${downloadsReport}`];
  suite(downloadsTitle, downloadsReport, run(downloadsTitle, 'npx', downloadsArgs));
  const playwrightReport = path.join(reports, 'playwright.json');
  const playwrightCounts = (r) => ({
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected + (r.errors?.length ?? 0),
  });
  suite('browser tests', playwrightReport, run('browser tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']), playwrightCounts, notePlaywrightFailures);
} else {
  failed += 1;
  failures.push('shell build (browser tests not run)');
}

console.log(`\nTime: ${timings.join(', ')}`);
if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.map((line) => `- ${line}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

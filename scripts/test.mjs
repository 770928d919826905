// `npm test`: every check of the project in one run, ending with one line `N passed, N failed`.
// Steps: type check, lint, unit + API + LDAP tests (vitest; the API suite also runs on PostgreSQL
// when DATABASE_URL is set), shell build, browser tests (Playwright in Debian's Chromium).
// `npm test -- --with-node24` (what CI runs) also runs the server, card-issuer and crypto suites on Node 24 (scripts/node24.mjs).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ensureSystemDeps } from './system-deps.mjs';
import { withNode24 } from './node24.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reports = path.join(root, '.tmp', 'test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

ensureSystemDeps();

let passed = 0;
let failed = 0;
const failures = [];

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

const vitestCounts = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numTotalTestSuites > 0 && r.numTotalTests === 0 ? 1 : 0),
});

/** A step that is one check: it passes or fails as a whole. */
function check(title, command, args) {
  if (run(title, command, args)) passed += 1;
  else {
    failed += 1;
    failures.push(title);
  }
}

/** A step that runs many tests and reports their counts in a JSON file. */
function suite(title, command, args, reportFile, count) {
  const ok = run(title, command, args);
  let counts;
  try {
    counts = count(JSON.parse(readFileSync(reportFile, 'utf8')));
  } catch {
    counts = { passed: 0, failed: 1 };
  }
  if (!ok && counts.failed === 0) counts.failed = 1; // the runner failed outside any test
  passed += counts.passed;
  failed += counts.failed;
  if (counts.failed > 0) failures.push(`${title} (${counts.failed})`);
}

check('type check', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npm', ['run', '--silent', 'lint']);

const vitestReport = path.join(reports, 'vitest.json');
suite('unit, API and LDAP tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], vitestReport, vitestCounts);

if (process.argv.includes('--with-node24')) {
  const node24Report = path.join(reports, 'vitest-node24.json');
  const vitest = path.join('node_modules', 'vitest', 'vitest.mjs');
  const title = 'unit, API and LDAP tests on Node 24';
  console.log(`\n=== ${title}`);
  let ok = false;
  try {
    // What the runtime changes: the server (node:sqlite instead of better-sqlite3 on Node >= 22.16, LDAP, argon2),
    // the card issuer and the crypto packages, on the embedded database. The shell and the sub-app are browser
    // code that the Node 20 run already tests in jsdom, and PostgreSQL's SQL is the same under either runtime:
    // leaving them out keeps CI under its 30 minutes.
    const projects = ['server', 'card-issuer', 'card-crypto', 'subapp-sdk'].flatMap((name) => ['--project', name]);
    ok = withNode24(root, [vitest, 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${node24Report}`], { DATABASE_URL: '' }) === 0;
  } catch (error) {
    console.error(`${title}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let counts;
  try {
    counts = vitestCounts(JSON.parse(readFileSync(node24Report, 'utf8')));
  } catch {
    counts = { passed: 0, failed: 1 };
  }
  if (!ok && counts.failed === 0) counts.failed = 1;
  passed += counts.passed;
  failed += counts.failed;
  if (counts.failed > 0) failures.push(`${title} (${counts.failed})`);
}

if (run('shell build', 'npm', ['run', '--silent', 'build'])) {
  passed += 1;
  const playwrightReport = path.join(reports, 'playwright.json');
  suite('browser tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], playwrightReport, (r) => ({
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected + (r.errors?.length ?? 0),
  }));
} else {
  failed += 1;
  failures.push('shell build (browser tests not run)');
}

if (failures.length > 0) console.log(`\nFailed: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

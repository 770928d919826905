// The long run of the route fuzzer (issue 17, item 2): apps/server/test/platform/api-fuzz.test.ts, the file `npm test`
// runs with a fixed seed and a few runs, here with many runs and a seed drawn anew (and reported, to replay it).
// On PostgreSQL too when DATABASE_URL is set, as the test file itself decides.
// Alone: `node bench/support/route-fuzz.mjs` prints the report's section.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './servers.mjs';

/** Runs the fuzz file; answers its figures and whether vitest passed. */
export function runRouteFuzz({ runs, seed = Math.floor(Math.random() * 2 ** 31) }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'campus-bench-fuzz-'));
  const reportFile = path.join(dir, 'fuzz.json');
  try {
    const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const result = spawnSync(process.execPath, [vitest, 'run', '--project', 'server', 'test/platform/api-fuzz.test.ts', '--reporter=dot'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: String(seed), FUZZ_REPORT: reportFile },
    });
    let figures;
    try {
      figures = JSON.parse(readFileSync(reportFile, 'utf8'));
    } catch {
      throw new Error(`the route fuzzer (seed ${seed}) wrote no figures: vitest exited with ${result.status}`);
    }
    return { ...figures, passed: result.status === 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report's section for a run's figures. */
export function routeFuzzSection(fuzz) {
  const p = fuzz.problems;
  const zero = (n) => (n === 0 ? '0' : `**${n}**`);
  return `## Fuzzing every route

apps/server/test/platform/api-fuzz.test.ts with FUZZ_RUNS=${fuzz.runsPerRouteAndCaller} and FUZZ_SEED=${fuzz.seed} (replay with the same two):
requests made from each route's own schemas (valid, boundary and hostile values), to each of the ${fuzz.routes}
registered routes as a system administrator, without a token and with a token that is no session (and with a
master-card token on the gate deployment), on the ${fuzz.deployments.join(' and ')} deployments, on ${fuzz.databases.join(' and ')}.
\`npm test\` runs the same file with a fixed seed and 16 runs.

| requests | 5xx replies | not an envelope | not in the caller's language | breaking their own schema | leaks (stack, path, error text) | seconds |
| --- | --- | --- | --- | --- | --- | --- |
| ${fuzz.requests.toLocaleString('en-US')} | ${zero(p.status5xx)} | ${zero(p.notEnvelope)} | ${zero(p.language)} | ${zero(p.schema)} | ${zero(p.leak)} | ${fuzz.seconds.toFixed(0)} |

${fuzz.failedRoutes.length === 0 ? 'No route failed.' : `Routes that failed (each property stops at its first failure): ${fuzz.failedRoutes.map((r) => `\`${r}\``).join(', ')}.`}
Budget: 0 of each: ${fuzz.passed && fuzz.failedRoutes.length === 0 ? 'within budget' : '**over budget**'}.
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fuzz = runRouteFuzz({ runs: Number(process.env.BENCH_FUZZ_RUNS ?? 500), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined });
  console.log(routeFuzzSection(fuzz));
  process.exit(fuzz.passed ? 0 : 1);
}

import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Debian's `prometheus` package installs it; scripts/system-deps.mjs installs that package on a CI machine. */
export const promtoolPath = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

export interface PromtoolResult {
  status: number | null;
  /** stdout and stderr together: promtool writes its findings to either. */
  output: string;
}

/**
 * Runs promtool; absent, it throws (a test that needs it fails and says how to install it, never skips). A test
 * of the monitoring files would otherwise pass on a machine that checked nothing.
 */
export function promtool(args: string[], input?: string): PromtoolResult {
  if (!existsSync(promtoolPath)) {
    throw new Error(`promtool is not installed at ${promtoolPath}: apt-get install -y prometheus (node scripts/ci-system-deps.mjs does it as root), or set PROMTOOL_PATH`);
  }
  const run = spawnSync(promtoolPath, args, { input, encoding: 'utf8', timeout: 180_000 });
  if (run.error) throw run.error;
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

import type { ChildProcess } from 'node:child_process';

/** Resolves once `child` has ended (at once when it has already). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Stops `child` as a crash or `systemctl stop` would: SIGTERM, SIGKILL after `graceMs`; resolves once it has ended. */
export async function terminate(child: ChildProcess, graceMs = 5000): Promise<void> {
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

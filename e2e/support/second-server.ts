import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asSetUp } from './set-up-time.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SecondServer {
  baseURL: string;
  stop: () => Promise<void>;
}

/**
 * Another server beside the suite's own, on its own port and data folder, for what needs a different start
 * (the demo without a licence). Resolves once /healthz answers; the wait counts as set-up, not test time.
 */
export function startSecondServer(port: number, env: Record<string, string>): Promise<SecondServer> {
  return asSetUp(() => launch(port, env));
}

async function launch(port: number, env: Record<string, string>): Promise<SecondServer> {
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'e2e', 'support', 'start-server.mjs')], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), E2E_DATA_DIR: path.join('.tmp', `e2e-data-${port}`), ...env },
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the second server stopped with exit code ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the second server did not answer on ${baseURL} within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseURL,
    stop: () =>
      asSetUp(
        () =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
  };
}

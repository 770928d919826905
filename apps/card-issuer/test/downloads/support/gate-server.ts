import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { until } from './issuer-panel.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');

export interface GateServer {
  origin: string;
  stop(): Promise<void>;
}

/**
 * The product's server as the browser tests start it (e2e/support/start-server.mjs: this machine's Node, the source,
 * SQLite) on a fresh data folder in a temp dir, as a gate deployment (MJ_SYSTEM 21) whose card issuer listens on
 * `issuerPort`, as `startGateDeployment` (e2e/support/gate-deployment.ts) starts it.
 */
export async function startGateServer(port: number, issuerPort: number): Promise<GateServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-download-server-'));
  const log = fs.openSync(path.join(dataDir, 'server.log'), 'a');
  const child = spawn(process.execPath, [path.join(repoRoot, 'e2e', 'support', 'start-server.mjs')], {
    cwd: repoRoot,
    stdio: ['ignore', log, log],
    env: { ...process.env, PORT: String(port), E2E_DATA_DIR: path.join(dataDir, 'data'), MJ_SYSTEM: '21', CARD_ISSUER_PORT: String(issuerPort), CARD_ISSUER_URL: '', IMAGE_CODE: 'off' },
  });
  fs.closeSync(log);
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await until(
      () => `the server on ${origin}: ${fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8').slice(-2000)}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode}): ${fs.readFileSync(path.join(dataDir, 'server.log'), 'utf8').slice(-2000)}`);
        try {
          return (await fetch(`${origin}/healthz`)).ok;
        } catch {
          return false;
        }
      },
      90,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/config.ts';
import { freePort } from '../support/free-port.ts';

// `npm run serve` (scripts/start-all.mjs) under a service manager or a script stopped with SIGTERM to npm: npm's
// `sh -c` dies without passing the signal on, and the server and the card issuer must not be left running (issue 26).

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function until(condition: () => Promise<boolean>, tries: number): Promise<boolean> {
  for (let i = 0; i < tries; i += 1) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-serve-signal-'));
let group: number | undefined;
afterAll(() => {
  // whatever is left of the run (its own process group) when the test failed
  try {
    if (group !== undefined) process.kill(-group, 'SIGKILL');
  } catch {
    // all gone, as it should be
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run serve', () => {
  it('stops the server and the card issuer when npm gets SIGTERM', async () => {
    const port = await freePort();
    const issuerPort = await freePort();
    const npm = spawn('npm', ['run', 'serve'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CARD_ISSUER_PORT: String(issuerPort), DATA_DIR: dataDir, NODE_ENV: 'development' },
      stdio: 'ignore',
      detached: true,
    });
    group = npm.pid;
    const bothUp = await until(async () => (await accepts(port)) && (await accepts(issuerPort)), 240);
    expect(bothUp).toBe(true);

    npm.kill('SIGTERM');
    const bothDown = await until(async () => !(await accepts(port)) && !(await accepts(issuerPort)), 120);
    expect(bothDown).toBe(true);
  });
});

// Child processes the benchmarks measure: the real server on a fresh data folder, and a bare Fastify
// route as the yardstick. Both run as separate processes so the load generator does not share them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

async function waitForHealth(url, child, seconds = 90) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no answer from ${url} within ${seconds} s`);
}

function stopper(child, cleanup = () => {}) {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    cleanup();
  };
}

/**
 * The product's server with the demo seed, image code off so the benchmark can sign in: on its own SQLite file
 * unless `env` names a DATABASE_URL (several nodes of one database). `nodeArgs` go to Node (a CPU profile).
 */
export async function startProductServer(port, env = {}, nodeArgs = []) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campus-bench-'));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), IMAGE_CODE: 'off', NODE_ENV: 'development', ...env },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(`${baseUrl}/healthz`, child);
  return { baseUrl, pid: child.pid, stop: stopper(child, () => rmSync(dataDir, { recursive: true, force: true })) };
}

/** The work (µs on the CPU) of the bare server's /bare-work-N routes. */
export const bareWorkMicros = [10, 20, 40];

/** A Fastify server with one route and nothing else: the ceiling for the machine. */
export async function startBareServer(port, replyFile = null) {
  const child = spawn(process.execPath, [path.join(root, 'bench/support/bare-server.mjs'), String(port), ...(replyFile ? [replyFile] : [])], {
    cwd: path.join(root, 'apps/server'),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BARE_WORK_MICROS: bareWorkMicros.join(',') },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHealth(`${baseUrl}/healthz`, child);
  return { baseUrl, stop: stopper(child) };
}

// The card issuer's round trip for a read of a present card on the virtual reader (issue 12), beside a bare
// Fastify route in the same run, and the issuer's memory idle and after the calls. Sequential calls, one at a
// time, as the shell makes them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './servers.mjs';
import { timeCalls } from './timing.mjs';

function rssKb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

async function until(check, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the card issuer did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function measureIssuerRoundTrip({ port, bareUrl, calls = 1000 }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campus-bench-issuer-'));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/card-issuer/src/main.ts')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CARD_ISSUER_PORT: String(port), CARD_ISSUER_DATA_DIR: dataDir },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await until(async () => (await fetch(`${url}/reader/api/status`)).ok);
    const post = (p, body, headers = {}) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    await post('/reader/api/blank', { place: true });
    const token = 'bench-pairing-token-0001';
    await post('/api/AuthDevice/AddIdentity', { cardDeviceToken: token });
    const read = async () => {
      const res = await post('/api/UserCard/ReadBaseInfo', {}, { carddevicetoken: token });
      const body = await res.json();
      if (body.code !== 0) throw new Error(`ReadBaseInfo answered ${body.code} ${body.msg}`);
    };
    const bare = async () => {
      const res = await fetch(`${bareUrl}/bare`);
      await res.json();
    };
    for (let i = 0; i < 100; i++) await read();
    for (let i = 0; i < 100; i++) await bare();
    const idleKb = rssKb(child.pid);
    const issuer = await timeCalls(calls, read);
    const afterKb = rssKb(child.pid);
    const yardstick = await timeCalls(calls, bare);
    return { calls, issuer, bare: yardstick, idleKb, afterKb };
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Card management Search at scale (issue 14): 100,000 administrator login cards across 2 tenants and 2,000 system
// key cards, searched page by page (size 15) with each filter of spec §2, on SQLite and on PostgreSQL.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sm3 } from 'sm-crypto-v2';
import { freshPostgres } from './postgres.mjs';
import { root } from './servers.mjs';
import { timeCalls } from './timing.mjs';

const digest = (text) => sm3(new TextEncoder().encode(text)).toLowerCase();

async function until(url, child) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gate server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the gate server did not answer on ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The Search variants measured: what an operator filters by on the card tables. */
function variants(holderId) {
  const page = (index = 1) => ({ index, size: 15 });
  return [
    ['admin cards, first page (newest first)', '/qy/api/SystemAdminLoginCard/Search', { page: page() }],
    ['admin cards, page 1,000', '/qy/api/SystemAdminLoginCard/Search', { page: page(1000) }],
    ['admin cards, state lost', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'states', value: '[40]' }] }],
    ['admin cards, states in use + frozen', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'states', value: '[20,80]' }] }],
    ['admin cards, card kind 11', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'cardKinds', value: '[11]' }] }],
    ['admin cards, one operator', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'OprtId', value: holderId }] }],
    ['admin cards, likeSearch part of a fixed number', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'likeSearch', value: '0C35' }] }],
    ['admin cards, likeSearch a login name', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'likeSearch', value: 'x17' }] }],
    ['admin cards, every filter at once', '/qy/api/SystemAdminLoginCard/Search', { page: page(), filters: [{ field: 'OprtId', value: holderId }, { field: 'states', value: '[20]' }, { field: 'cardKinds', value: '[11]' }, { field: 'likeSearch', value: 'B00' }] }],
    ['admin cards, ordered by card number', '/qy/api/SystemAdminLoginCard/Search', { page: page(), orderBys: [{ field: 'num', isAsc: true }] }],
    ['key cards, first page', '/qy/api/SystemKeyCard/Search', { page: page() }],
    ['key cards, likeSearch', '/qy/api/SystemKeyCard/Search', { page: page(), filters: [{ field: 'likeSearch', value: '07' }] }],
  ];
}

async function measureOn({ label, port, databaseUrl, calls }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campus-bench-cards-'));
  const postgres = databaseUrl ? await freshPostgres(databaseUrl, `campus_bench_cards_${process.pid}`) : null;
  const env = { ...process.env, DATABASE_URL: postgres?.url ?? '', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), IMAGE_CODE: 'off', NODE_ENV: 'development', MJ_SYSTEM: '21', RATE_LIMIT_PER_MINUTE: '1000000' };
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await until(`${baseUrl}/healthz`, server);
    const seedStart = Date.now();
    const seeded = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench/support/seed-cards.ts')], { cwd: root, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).trim().split('\n').at(-1));
    const seedSeconds = (Date.now() - seedStart) / 1000;
    const login = await (await fetch(`${baseUrl}/user/api/v1.0/account/weblogin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { account: 'sysadmin', password: digest('Sysadmin#2026'), tenantCode: '1001' } }) })).json();
    if (login.code % 10 !== 0) throw new Error(`sign-in for the card search benchmark failed: ${login.code} ${login.msg}`);
    const headers = { 'content-type': 'application/json', token: login.data.loginInfo.token, language: 'en-US' };
    const holder = seeded.holders.find((h) => h.tenantCode === '1001');
    const rows = [];
    for (const [name, url, body] of variants(holder.id)) {
      let recordCount = 0;
      const search = async () => {
        const reply = await (await fetch(`${baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
        if (reply.code !== 0) throw new Error(`${name}: ${reply.code} ${reply.msg}`);
        recordCount = reply.recordCount;
      };
      await timeCalls(10, search);
      rows.push({ name, recordCount, ...(await timeCalls(calls, search)) });
    }
    return { label, seedSeconds, adminCards: seeded.adminCards, keyCards: seeded.keyCards, rows };
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

/** SQLite always; PostgreSQL when DATABASE_URL names a server the user may create databases on. */
export async function measureCardSearch({ port, databaseUrl, calls = 200 }) {
  const results = [await measureOn({ label: 'SQLite', port, databaseUrl: null, calls })];
  if (databaseUrl) results.push(await measureOn({ label: 'PostgreSQL', port, databaseUrl, calls }));
  return results;
}

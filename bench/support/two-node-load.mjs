// Issue 17, load and memory: two server nodes on one database under 100 connections for a minute, over the calls
// the shell makes most once signed in (menus, user detail, operation log search, licence permission). Errors, the
// p99 of each node, and each node's memory after a warm-up and after the load, each read right after a full
// garbage collection (memory-probe.mjs).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshPostgres } from './postgres.mjs';
import { startProductServer } from './servers.mjs';

/** Sessions per node: the connections take turns with them (one system administrator, who may make every call of the mix). */
const sessionsPerNode = 10;

const memoryProbe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs');

/** The node's memory right after a full garbage collection (memory-probe.mjs), in KB: RSS and the JavaScript heap in use. */
async function memoryAfterCollection(node) {
  rmSync(node.probeFile, { force: true });
  process.kill(node.pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000 && !existsSync(node.probeFile); waited += 50) await new Promise((r) => setTimeout(r, 50));
  const usage = JSON.parse(readFileSync(node.probeFile, 'utf8'));
  return { rssKb: usage.rss / 1024, heapKb: usage.heapUsed / 1024 };
}

async function signIn(baseUrl, account, password) {
  const digest = createHash('sha256').update(password, 'utf8').digest('hex');
  const res = await fetch(`${baseUrl}/user/api/v1.0/account/weblogin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { account, password: digest, tenantCode: '1001' } }),
  });
  const body = await res.json();
  if (body.code % 10 !== 0) throw new Error(`sign-in of ${account} failed: ${body.code} ${body.msg}`);
  return body.data.loginInfo.token;
}

/** The shell's calls after sign-in, in the order a connection repeats them. */
const mix = [
  { method: 'GET', path: '/system/api/System/GetMenu' },
  { method: 'GET', path: '/qy/api/User/GetDetailByToken' },
  { method: 'POST', path: '/qy/api/OperateLog/Search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: { index: 1, size: 20 } }) },
  { method: 'GET', path: '/system/api/System/GetLicensePermission' },
];

/**
 * `connections` connections repeating the mix for `seconds`, spread over the sessions (`tokens`, one load per session).
 * Replies travel uncompressed so that every one is checked: a failure envelope (HTTP 200 with a code that is not 0)
 * counts as an error as much as an HTTP failure does.
 */
async function load(baseUrl, tokens, connections, seconds) {
  let failed = 0;
  const countFailures = (status, body) => {
    if (status === 200 && !String(body).startsWith('{"code":0,')) failed += 1;
  };
  const perSession = Math.max(1, Math.round(connections / tokens.length));
  const results = await Promise.all(
    tokens.map((token) =>
      autocannon({
        url: baseUrl,
        connections: perSession,
        duration: seconds,
        headers: { language: 'en-US', tenantCode: '1001', token },
        requests: mix.map((request) => ({ ...request, onResponse: countFailures })),
      }),
    ),
  );
  // latencies as each load saw them: the worst p99 and a request-weighted p50
  const total = results.reduce((n, r) => n + r.requests.total, 0);
  return {
    requests: total,
    rps: results.reduce((n, r) => n + r.requests.average, 0),
    p50: results.reduce((n, r) => n + r.latency.p50 * r.requests.total, 0) / Math.max(1, total),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts + r.non2xx, 0) + failed,
  };
}

export async function measureTwoNodeLoad({ ports, databaseUrl, seconds = 60, connections = 100 }) {
  if (!databaseUrl) return null;
  const postgres = await freshPostgres(databaseUrl, `campus_bench_nodes_${process.pid}`);
  const nodes = [];
  const probeDir = mkdtempSync(path.join(tmpdir(), 'campus-memory-'));
  try {
    // one after the other: the first migrates and seeds the database, the second finds it ready
    for (const port of ports) {
      const probeFile = path.join(probeDir, `${port}.json`);
      const node = await startProductServer(port, { DATABASE_URL: postgres.url, MEMORY_PROBE_FILE: probeFile }, ['--expose-gc', '--import', memoryProbe]);
      nodes.push({ ...node, probeFile });
    }
    const tokens = await Promise.all(nodes.map((node) => Promise.all(Array.from({ length: sessionsPerNode }, () => signIn(node.baseUrl, 'sysadmin', 'Sysadmin#2026')))));
    // warm-up, then the memory each node starts the measured minute with
    await Promise.all(nodes.map((node, i) => load(node.baseUrl, tokens[i], 10, 5)));
    const before = await Promise.all(nodes.map(memoryAfterCollection));
    const results = await Promise.all(nodes.map((node, i) => load(node.baseUrl, tokens[i], Math.round(connections / nodes.length), seconds)));
    const after = await Promise.all(nodes.map(memoryAfterCollection));
    return {
      seconds,
      connections,
      nodes: results.map((r, i) => ({
        port: ports[i],
        ...r,
        rssBeforeKb: before[i].rssKb,
        rssAfterKb: after[i].rssKb,
        heapBeforeKb: before[i].heapKb,
        heapAfterKb: after[i].heapKb,
      })),
    };
  } finally {
    for (const node of nodes) await node.stop();
    await postgres.drop();
    rmSync(probeDir, { recursive: true, force: true });
  }
}

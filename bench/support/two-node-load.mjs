// Issue 17, load and memory: two server nodes on one database under 100 connections for a minute, over the calls
// the shell makes most once signed in (menus, user detail, operation log search, licence permission). Errors, the
// p99 of each node, and each node's memory (RSS) after a warm-up and after the load.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import { freshPostgres } from './postgres.mjs';
import { startProductServer } from './servers.mjs';

/** Sessions per node: the connections take turns with them (one system administrator, who may make every call of the mix). */
const sessionsPerNode = 10;

function rssKb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0);
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
  try {
    // one after the other: the first migrates and seeds the database, the second finds it ready
    for (const port of ports) nodes.push(await startProductServer(port, { DATABASE_URL: postgres.url }));
    const tokens = await Promise.all(nodes.map((node) => Promise.all(Array.from({ length: sessionsPerNode }, () => signIn(node.baseUrl, 'sysadmin', 'Sysadmin#2026')))));
    // warm-up, then the memory each node starts the measured minute with
    await Promise.all(nodes.map((node, i) => load(node.baseUrl, tokens[i], 10, 5)));
    const before = nodes.map((node) => rssKb(node.pid));
    const results = await Promise.all(nodes.map((node, i) => load(node.baseUrl, tokens[i], Math.round(connections / nodes.length), seconds)));
    const after = nodes.map((node) => rssKb(node.pid));
    return {
      seconds,
      connections,
      nodes: results.map((r, i) => ({
        port: ports[i],
        ...r,
        rssBeforeKb: before[i],
        rssAfterKb: after[i],
      })),
    };
  } finally {
    for (const node of nodes) await node.stop();
    await postgres.drop();
  }
}

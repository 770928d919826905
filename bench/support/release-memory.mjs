// Issue 48 item 4: the memory of the server a customer runs: the release's esbuild bundle (scripts/release/bundle.mjs)
// on Node 24, NODE_ENV=production, on a database that has been started before (a restart, as every day after the
// install). Idle after the start and after a full collection, then loaded after a fixed load of the calls the shell
// makes most; each figure the median of a few runs (the machine is shared).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { bundleServer } from '../../scripts/release/bundle.mjs';
import { buildVersion } from '../../scripts/release/build-version.mjs';
import { installNode24 } from '../../scripts/node24.mjs';

const memoryProbe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs');

/** The aim of issue 48: the release's server idle in at most this RSS. */
export const idleRssAimMb = 120;

/**
 * The release's server folder: the bundle, and beside it (links) what the release copies there and the server reads.
 * Inside the repository, so that the packages the bundle leaves out (bundle.mjs) resolve from its node_modules. The
 * repository's TEST licence keys too: the measured database holds the demo, whose licence they sign.
 */
async function releaseFolder(root) {
  const dir = path.join(root, '.tmp', 'bench-release');
  rmSync(dir, { recursive: true, force: true });
  // the version a release of this tree would carry (scripts/release/build-version.mjs)
  await bundleServer(root, dir, { version: buildVersion(root) });
  const links = ['apps/shell/dist', 'apps/subapp-qy/dist', 'dist', 'docs', 'apps/server/captcha-voices', 'apps/server/licence-keys'];
  for (const link of links) {
    mkdirSync(path.dirname(path.join(dir, link)), { recursive: true });
    symlinkSync(path.join(root, link), path.join(dir, link));
  }
  return dir;
}

/** The flags the release gives its Node (deploy/release/run-node.sh, `node_flags`): measured as a customer runs it. */
export function releaseNodeFlags(root) {
  const match = /^node_flags='([^']*)'$/m.exec(readFileSync(path.join(root, 'deploy/release/run-node.sh'), 'utf8'));
  if (!match) throw new Error('deploy/release/run-node.sh sets no node_flags');
  return match[1].split(' ').filter(Boolean);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function startBundle({ node, dir, dataDir, port, env, nodeArgs = [] }) {
  const child = spawn(node, [...nodeArgs, path.join(dir, 'apps/server/dist/main.mjs')], {
    cwd: dataDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), IMAGE_CODE: 'off', ...env },
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the bundled server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) {
        return {
          pid: child.pid,
          stop: async () => {
            if (child.exitCode !== null) return;
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.kill('SIGTERM');
            await exited;
          },
        };
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error('the bundled server did not answer /healthz within 90 s');
}

/** RSS and heap in use right after a full collection (memory-probe.mjs), in MB. */
async function afterCollection(pid, probeFile) {
  rmSync(probeFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000 && !existsSync(probeFile); waited += 50) await sleep(50);
  const usage = JSON.parse(readFileSync(probeFile, 'utf8'));
  return { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20 };
}

/** The shell's calls after sign-in, and its cheapest one. */
const mix = [
  { method: 'GET', path: '/system/api/System/GetMenu' },
  { method: 'GET', path: '/qy/api/User/GetDetailByToken' },
  { method: 'POST', path: '/qy/api/OperateLog/Search', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: { index: 1, size: 20 } }) },
  { method: 'GET', path: '/system/api/System/GetLicensePermission' },
  { method: 'GET', path: '/system/api/System/GetLanguageList' },
];

async function oneRun({ node, dir, port, seconds, nodeArgs }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'campus-bench-memory-'));
  const probeFile = path.join(dataDir, 'memory-probe.json');
  try {
    // the first start seeds the demo (and draws its pictures); the one measured is the next, as after every restart
    const seeding = await startBundle({ node, dir, dataDir, port, env: { NODE_ENV: 'development' } });
    await seeding.stop();
    const server = await startBundle({ node, dir, dataDir, port, env: { NODE_ENV: 'production', MEMORY_PROBE_FILE: probeFile }, nodeArgs: ['--expose-gc', '--import', memoryProbe, ...nodeArgs] });
    try {
      await sleep(3000);
      const idle = rssMb(server.pid);
      const idleCollected = await afterCollection(server.pid, probeFile);
      const baseUrl = `http://127.0.0.1:${port}`;
      const password = createHash('sha256').update('Sysadmin#2026', 'utf8').digest('hex');
      const signIn = await (await fetch(`${baseUrl}/user/api/v1.0/account/weblogin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { account: 'sysadmin', password, tenantCode: '1001' } }) })).json();
      if (signIn.code % 10 !== 0) throw new Error(`sign-in for the memory benchmark failed: ${signIn.code} ${signIn.msg}`);
      let peak = idle;
      const watch = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid));
      }, 250);
      const result = await autocannon({ url: baseUrl, connections: 16, duration: seconds, headers: { language: 'en-US', tenantCode: '1001', token: signIn.data.loginInfo.token }, requests: mix });
      clearInterval(watch);
      const loaded = rssMb(server.pid);
      const loadedCollected = await afterCollection(server.pid, probeFile);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`memory benchmark load: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return { idle, idleCollected: idleCollected.rss, idleHeap: idleCollected.heap, rps: result.requests.average, peak, loaded, loadedCollected: loadedCollected.rss, loadedHeap: loadedCollected.heap };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** `runs` runs (odd), each figure their median. `nodeArgs` go to the measured Node: the release's own by default. */
export async function measureReleaseMemory({ root, port, seconds = 30, runs = 3, nodeArgs = releaseNodeFlags(root) }) {
  const node = installNode24(path.join(root, '.tmp', 'node24'));
  const dir = await releaseFolder(root);
  const all = [];
  for (let i = 0; i < runs; i += 1) all.push(await oneRun({ node: node.binary, dir, port, seconds, nodeArgs }));
  const figures = Object.fromEntries(Object.keys(all[0]).map((key) => [key, median(all.map((run) => run[key]))]));
  return { nodeVersion: node.version, nodeArgs, seconds, runs, all, ...figures };
}

/** The report's section. */
export function releaseMemorySection(memory) {
  const mb = (value) => `${value.toFixed(1)} MB`;
  const row = (what, value) => `| ${what} | ${mb(value)} | ${((value / idleRssAimMb) * 100).toFixed(0)} % |`;
  return `## Memory of the release's server

The server as a release runs it: the esbuild bundle of \`scripts/release/bundle.mjs\` on Node ${memory.nodeVersion} with the release's flags
(\`${memory.nodeArgs.join(' ') || 'none'}\`, \`deploy/release/run-node.sh\`), NODE_ENV=production, SQLite,
restarted on a database that holds the demo (the start after the first, which seeds). Idle is 3 s after it answers
\`/healthz\`; loaded is after ${memory.seconds} s of 16 connections repeating GetMenu, GetDetailByToken, OperateLog/Search,
GetLicensePermission and GetLanguageList as a system administrator (${memory.rps.toFixed(0)} requests/s). "After a collection" is read right
after a full garbage collection (\`bench/support/memory-probe.mjs\`). Medians of ${memory.runs} runs, each on a fresh data folder.

| RSS | median | of the aim (${idleRssAimMb} MB idle) |
| --- | --- | --- |
${row('idle, after the start', memory.idle)}
${row('idle, after a collection', memory.idleCollected)}
${row('loaded, highest during the load', memory.peak)}
${row('loaded, after the load', memory.loaded)}
${row('loaded, after a collection', memory.loadedCollected)}

JavaScript heap in use after a collection: ${mb(memory.idleHeap)} idle, ${mb(memory.loadedHeap)} loaded.

Aim (issue 48): at most ${idleRssAimMb} MB idle after the start: ${memory.idle <= idleRssAimMb ? 'meets the aim' : '**misses the aim**'} (${((memory.idle / idleRssAimMb) * 100).toFixed(0)} % of it). What the
server holds and why: docs/architecture.md, "Memory".

<details><summary>Each run (MB: idle, idle collected, peak, loaded, loaded collected; requests/s)</summary>

${memory.all.map((r, i) => `- run ${i + 1}: ${[r.idle, r.idleCollected, r.peak, r.loaded, r.loadedCollected].map((v) => v.toFixed(1)).join(', ')}; ${r.rps.toFixed(0)}/s`).join('\n')}

</details>`;
}

// Where a GetMenu call's time goes (issue 17): one node under GetMenu load with Node's CPU profiler on, then the
// functions that took the most time, by themselves and with what they called, and the whole profile as folded stacks
// (bench/reports/getmenu.folded: one line a stack, for any flame graph tool, e.g. speedscope or flamegraph.pl).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { root, startProductServer } from './servers.mjs';

function frameName(frame) {
  const where = frame.url.replace(/^file:\/\/\/?/, '/').replace(`${root}/`, '').replace(/^.*node_modules\//, '');
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}:${frame.lineNumber + 1}` : ''}`;
}

/**
 * Self and inclusive time per function, and folded stacks, from a .cpuprofile, counting only the samples taken from
 * `fromMicros` on (V8 stamps samples with the monotonic clock, which this process reads too): the load, not the start.
 */
function summarise(profile, fromMicros) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const timeOf = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= fromMicros) timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const busy = [...timeOf].filter(([id]) => !['(idle)', '(program)'].includes(byId.get(id).callFrame.functionName));
  const total = busy.reduce((n, [, t]) => n + t, 0);
  const self = new Map();
  const inclusive = new Map();
  const folded = new Map();
  for (const [id, time] of busy) {
    const stack = [];
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(frameName(byId.get(cur).callFrame));
    self.set(stack[0], (self.get(stack[0]) ?? 0) + time);
    for (const name of new Set(stack)) inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    const line = stack.slice(0, -1).reverse().join(';');
    folded.set(line, (folded.get(line) ?? 0) + time);
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, t]) => ({ name, share: t / total }));
  return { busyMicros: total, self: top(self, 12), inclusive: top(inclusive, 40).filter((f) => f.name !== '(root)').slice(0, 16), folded: [...folded].map(([line, t]) => `${line} ${Math.round(t)}`).join('\n') };
}

export async function profileGetMenu({ port, seconds = 8 }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'campus-profile-'));
  const node = await startProductServer(port, {}, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  let result;
  let loadFrom = 0;
  try {
    const password = createHash('sha256').update('Sysadmin#2026', 'utf8').digest('hex');
    const signIn = await (await fetch(`${node.baseUrl}/user/api/v1.0/account/weblogin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user: { account: 'sysadmin', password, tenantCode: '1001' } }) })).json();
    const headers = { token: signIn.data.loginInfo.token, tenantCode: '1001', language: 'en-US', 'accept-encoding': 'gzip, deflate, br, zstd' };
    loadFrom = Number(process.hrtime.bigint() / 1000n);
    result = await autocannon({ url: `${node.baseUrl}/system/api/System/GetMenu`, headers, connections: 16, duration: seconds });
  } finally {
    await node.stop();
  }
  // the main thread's profile is the largest (the module loader's thread writes one too)
  const file = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')), loadFrom);
  writeFileSync(path.join(root, 'bench', 'reports', 'getmenu.folded'), `${summary.folded}\n`);
  rmSync(dir, { recursive: true, force: true });
  // the process's busy time (not idle) per call answered while the profile ran: what one call costs one core
  const busyMicrosPerCall = summary.busyMicros / result.requests.total;
  return { rps: result.requests.average, seconds, busyMicrosPerCall, self: summary.self, inclusive: summary.inclusive };
}

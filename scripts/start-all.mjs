// `npm start` / `npm run serve`: the server and the local card issuer together, one command. Both logs go to this
// console with a prefix; Ctrl+C stops both; if one of them stops, the other is stopped too and this says why.
// In a real gate deployment the issuer runs on the operator's PC beside the reader (docs/operator-pc.md).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT?.trim() || '6300';
const dataDir = process.env.DATA_DIR?.trim() || 'data';

const mjSystem = Number(process.env.MJ_SYSTEM ?? '');
const gateDemo = mjSystem >= 21 && mjSystem <= 29 && process.env.NODE_ENV !== 'production';

const env = {
  ...process.env,
  // a gate demo starts with the vendor's mother card for the demo customer on the virtual reader (docs/cards.md "The gate demo, step by step")
  ...(gateDemo && !process.env.CARD_ISSUER_DEMO_MOTHER ? { CARD_ISSUER_DEMO_MOTHER: `${process.env.CUSTOMER_NO?.trim() || '10001'}:Customer#2026` } : {}),
  // and the card management tables show some card history once it is initialised
  ...(gateDemo && !process.env.DEMO_CARDS ? { DEMO_CARDS: 'on' } : {}),
  // the issuer answers the shell this server serves, and keeps its cards beside the server's data
  CARD_ISSUER_ALLOWED_ORIGINS: process.env.CARD_ISSUER_ALLOWED_ORIGINS?.trim() || `http://127.0.0.1:${port},http://localhost:${port}`,
  CARD_ISSUER_DATA_DIR: process.env.CARD_ISSUER_DATA_DIR?.trim() || path.join(dataDir, 'card-issuer'),
};

const programs = [
  { name: 'server', entry: 'apps/server/src/main.ts' },
  { name: 'issuer', entry: 'apps/card-issuer/src/main.ts' },
];

let stopping = false;
const children = programs.map(({ name, entry }) => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (stream, out) => {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) out.write(`[${name}] ${line}\n`);
    });
    stream.on('end', () => rest && out.write(`[${name}] ${rest}\n`));
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${name} stopped (${signal ?? `exit ${code}`}); stopping the other one too.\n`);
    for (const other of children) if (other !== child) other.kill('SIGTERM');
    process.exitCode = code ?? 1;
  });
  return child;
});

function stopAll(signal) {
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(signal));

// `npm run serve` runs this under `sh -c`: SIGTERM to npm reaches that shell, which dies without passing it on, and
// this process would be left running with both children (issue 26). So when the process that started this one is
// gone (this one is re-parented), the children are stopped as for SIGTERM.
const startedBy = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === startedBy) return;
  clearInterval(orphanWatch);
  if (stopping) return;
  process.stderr.write('\nThe command that started the server and the issuer is gone; stopping both.\n');
  stopAll('SIGTERM');
}, 500);
orphanWatch.unref();

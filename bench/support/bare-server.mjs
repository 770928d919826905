// The yardstick: Fastify with one JSON route, no plugins, no logging, no database; with a file given, a second route
// sends that file's bytes as JSON (a GetMenu reply: what sending the same bytes costs, with nothing else to do).
// /bare-work-N answers like /bare after N µs of work on the CPU: how the rate of this machine falls as a call does more.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Resolve fastify the way the server workspace does.
const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/package.json'));
const Fastify = require('fastify');

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/bare', async () => ({ code: 0, msg: 'ok', data: null }));
for (const micros of (process.env.BARE_WORK_MICROS ?? '').split(',').filter(Boolean).map(Number)) {
  app.get(`/bare-work-${micros}`, async () => {
    const until = performance.now() + micros / 1000;
    while (performance.now() < until);
    return { code: 0, msg: 'ok', data: null };
  });
}
if (process.argv[3]) {
  const reply = readFileSync(process.argv[3]);
  app.get('/bare-reply', async (_request, res) => res.type('application/json; charset=utf-8').send(reply));
}
await app.listen({ host: '127.0.0.1', port });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.close().then(() => process.exit(0)));

// The yardstick: Fastify with one JSON route, no plugins, no logging, no database.
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
await app.listen({ host: '127.0.0.1', port });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => app.close().then(() => process.exit(0)));

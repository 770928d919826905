import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codes } from '@campus/contracts';
import { simulateStorageFull } from '../../src/lib/storage-watch.ts';
import { call, databases, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

interface Failing {
  status: string;
  failing: { check: string; problem: string; where: string }[];
}

describe.each(databases)('/livez, /readyz and /healthz (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind, { env: { METRICS: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => simulateStorageFull(false));

  it('/livez and /readyz answer 200 when all is well', async () => {
    const live = await call(server, 'GET', '/livez');
    expect(live.status).toBe(200);
    expect(JSON.parse(live.text)).toEqual({ status: 'ok' });
    const ready = await call(server, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ok' });
  });

  it('a full storage turns /readyz and /healthz red, naming the data folder, and green again when it clears', async () => {
    simulateStorageFull(true);
    const ready = await call(server, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    const body = JSON.parse(ready.text) as Failing;
    expect(body.status).toBe('unavailable');
    expect(body.failing).toHaveLength(1);
    expect(body.failing[0]?.check).toBe('storage');
    expect(body.failing[0]?.where).toContain(server.config.dataDir);
    const health = await call(server, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.text)).toEqual({ status: 'storage full' });
    expect((await call(server, 'GET', '/livez')).status).toBe(200);

    simulateStorageFull(false);
    expect((await call(server, 'GET', '/readyz')).status).toBe(200);
    expect((await call(server, 'GET', '/healthz')).status).toBe(200);
  });

  it('unknown paths under the API prefixes and the health names answer the 404 envelope, never the shell', async () => {
    for (const url of ['/livez/x', '/readyz/x', '/metrics/x', '/healthz/x', '/user/api/nothing-here']) {
      const reply = await call(server, 'GET', url, undefined, { headers: { accept: 'text/html' } });
      expect(reply.status, url).toBe(404);
      expect(reply.body.code, url).toBe(codes.notFound);
    }
  });
});

describe('/readyz names a data folder it cannot write', () => {
  it('answers 503 with the dataDir check and its path when the data folder is gone (works as root, unlike chmod)', async () => {
    const server = await startServer('sqlite');
    try {
      expect((await call(server, 'GET', '/readyz')).status).toBe(200);
      // the open SQLite file lives on (its inode stays open); the folder is what is missing
      fs.rmSync(server.config.dataDir, { recursive: true, force: true });
      const ready = await call(server, 'GET', '/readyz');
      expect(ready.status).toBe(503);
      const body = JSON.parse(ready.text) as Failing;
      expect(body.failing.map((f) => f.check)).toEqual(['dataDir']);
      expect(body.failing[0]?.where).toBe(server.config.dataDir);
      expect(body.failing[0]?.problem).toContain('ENOENT');
    } finally {
      await server.close();
    }
  });
});

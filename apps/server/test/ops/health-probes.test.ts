import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codes } from '@campus/contracts';
import { simulateStorageFull } from '../../src/lib/storage-watch.ts';
import { call, databases, paths, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

interface Failing {
  status: string;
  failing: { check: string; problem: string; where: string }[];
}

describe.each(databases)('day-2 endpoints (%s)', (kind) => {
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

  it('/metrics counts sign-ins and failures by kind, requests by route pattern, sessions and the pool', async () => {
    await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const failed = await call(server, 'POST', paths.webLogin, webLoginBody('sysadmin', 'wrong-password'));
    expect(failed.body.code).toBe(codes.accountOrPasswordWrong);
    const reply = await call(server, 'GET', '/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/plain');
    const text = reply.text;
    expect(text).toMatch(/^campus_sign_ins_total\{kind="password"\} [1-9]\d*$/m);
    expect(text).toMatch(/^campus_sign_in_failures_total\{kind="password"\} [1-9]\d*$/m);
    expect(text).toMatch(/^campus_http_requests_total\{route="\/user\/api\/v1\.0\/account\/weblogin",method="POST",status="2xx"\} [1-9]\d*$/m);
    expect(text).toMatch(/^campus_http_request_duration_seconds_bucket\{le="\+Inf",route="\/livez",method="GET",status="2xx"\} [1-9]\d*$/m);
    // the raw URL of an unknown path is never a label
    expect(text).not.toContain('/user/api/nothing-here');
    expect(text).toMatch(/^campus_active_sessions [1-9]\d*$/m);
    expect(text).toMatch(/^campus_database_pool_connections\{state="total"\} \d+$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
  });
});

describe('/metrics is hidden unless on and allowed', () => {
  it('answers the 404 envelope when METRICS is off (the default)', async () => {
    const server = await startServer('sqlite');
    try {
      const reply = await call(server, 'GET', '/metrics');
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe(codes.notFound);
    } finally {
      await server.close();
    }
  });

  it('answers the 404 envelope to a caller outside METRICS_ALLOW (the address through TRUST_PROXY), and the metrics to one inside', async () => {
    const server = await startServer('sqlite', { env: { METRICS: 'on', TRUST_PROXY: '127.0.0.1', METRICS_ALLOW: '10.1.0.0/16' } });
    try {
      const outside = await call(server, 'GET', '/metrics', undefined, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(outside.status).toBe(404);
      expect(outside.body.code).toBe(codes.notFound);
      const inside = await call(server, 'GET', '/metrics', undefined, { headers: { 'x-forwarded-for': '10.1.2.3' } });
      expect(inside.status).toBe(200);
      expect(inside.text).toContain('campus_http_requests_total');
    } finally {
      await server.close();
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

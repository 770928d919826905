import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes } from '@campus/contracts';
import { AppError } from '../../src/http/envelope.ts';
import { countedCardOperation, metricsRegistry } from '../../src/lib/metrics.ts';
import { call, databases, paths, signIn, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

describe.each(databases)('what /metrics counts (%s)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(kind, { env: { METRICS: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sign-ins and failures by kind, requests by route pattern, sessions and the pool', async () => {
    await call(server, 'GET', '/livez');
    await call(server, 'GET', '/user/api/nothing-here');
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

describe('card operation metrics', () => {
  it('counts each operation by result: ok, refused (a business code) and failed (anything else)', async () => {
    await countedCardOperation('unit-test-op', async () => 'done');
    await expect(countedCardOperation('unit-test-op', async () => { throw new AppError(codes.cardUnknown); })).rejects.toBeInstanceOf(AppError);
    await expect(countedCardOperation('unit-test-op', async () => { throw new Error('reader unplugged'); })).rejects.toThrow('reader unplugged');
    const text = await metricsRegistry.getSingleMetricAsString('campus_card_operations_total');
    for (const result of ['ok', 'refused', 'failed']) expect(text).toContain(`campus_card_operations_total{operation="unit-test-op",result="${result}"} 1`);
  });
});

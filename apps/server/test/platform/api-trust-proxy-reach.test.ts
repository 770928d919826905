import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths, codes } from '@campus/contracts';
import { call, databases, otherAddress, startServer, webLoginBody } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/**
 * Issue 46 item 9: a server that listens on every address believes X-Forwarded-For only from the proxies it names.
 * The caller here connects from this machine's own non-loopback address and forges every header.
 */
describe.each(databases)('TRUST_PROXY on a server that listens on every address (%s)', (kind) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const direct = otherAddress();
  const everywhere = { listen: '0.0.0.0', callAt: direct };

  it('a hop count is refused: anyone who connects could name any address', async () => {
    for (const value of ['1', 'on', '2']) {
      await expect(startServer(kind, { network: everywhere, env: { HOST: '0.0.0.0', TRUST_PROXY: value, METRICS: 'on' } })).rejects.toThrow(
        `Invalid configuration: TRUST_PROXY is a number of proxy hops (${value === 'on' ? 1 : value}) while HOST 0.0.0.0 takes connections from other machines`,
      );
    }
  });

  it('with the proxies named, a direct caller\'s forged headers are not believed: /metrics, the address limit, HSTS', async () => {
    server = await startServer(kind, { network: everywhere, env: { HOST: '0.0.0.0', TRUST_PROXY: '10.9.9.9', METRICS: 'on', LOGIN_ADDRESS_FAILURE_LIMIT: '5' } });
    const metrics = await call(server, 'GET', '/metrics', undefined, { headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(metrics.status).toBe(404);
    expect(metrics.body.code).toBe(codes.notFound);

    const answers: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const reply = await call(server, 'POST', apiPaths.webLogin, webLoginBody(`ghost${i}`, 'Wrong#2026'), { language: 'en-US', headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } });
      answers.push(reply.body.code);
    }
    // the five failures allowed for the one real address, then the wait
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(codes.accountOrPasswordWrong));
    expect(answers[5]).toBe(codes.signInThrottled);
    const row = await server.handle.db.selectFrom('operation_logs').select('client_ip').where('action', '=', 'login').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(row.client_ip).toBe(direct);

    const live = await call(server, 'GET', '/livez', undefined, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '127.0.0.1' } });
    expect(live.status).toBe(200);
    expect(live.headers.get('strict-transport-security')).toBeNull();
  });
});

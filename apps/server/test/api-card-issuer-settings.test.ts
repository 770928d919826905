import { afterEach, describe, expect, it } from 'vitest';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { loadConfig } from '../src/config.ts';
import { call, databases, startServer } from './helpers.ts';
import type { TestServer } from './helpers.ts';

describe.each(databases)("the card issuer's address (%s)", (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it('the login settings name it (CARD_ISSUER_URL, default the spec port on this PC) and the page policy lets the shell call it', async () => {
    server = await startServer(kind);
    const settings = await call<TenantSettings>(server, 'GET', `${apiPaths.tenantSettings}?guid=abc`);
    expect(settings.body.data.cardIssuerUrl).toBe('http://127.0.0.1:18085');
    expect(settings.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:18085 http://localhost:18085");
    await server.close();
    server = await startServer(kind, { env: { CARD_ISSUER_URL: 'http://localhost:18190/' } });
    const moved = await call<TenantSettings>(server, 'GET', `${apiPaths.tenantSettings}?guid=abc`);
    expect(moved.body.data.cardIssuerUrl).toBe('http://localhost:18190');
    expect(moved.headers.get('content-security-policy')).toContain("connect-src 'self' http://localhost:18190 http://127.0.0.1:18190");
    expect(moved.headers.get('content-security-policy')).not.toContain('18085');
  });

  it('a value that is not an http(s) origin stops the start with a message naming it', () => {
    for (const bad of ['ftp://127.0.0.1:18085', 'http://127.0.0.1:18085/api', 'not a url', 'http://user:pw@127.0.0.1:18085']) {
      expect(() => loadConfig({ CARD_ISSUER_URL: bad }), bad).toThrow(/CARD_ISSUER_URL/);
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, LicenceUploadResult } from '@campus/contracts';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import { buildApp } from '../../src/app.ts';
import { repoRoot } from '../../src/config.ts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

const expiredExample = fs.readFileSync(path.join(repoRoot, 'docs', 'licences', 'expired-example.lic'));

async function uploadExample(url: string, token: string): Promise<LicenceUploadResult | undefined> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(expiredExample)]), 'example.lic');
  const res = await fetch(`${url}${apiPaths.licenceUpload}`, { method: 'POST', headers: { token, language: 'en-US' }, body: form });
  return (JSON.parse(await res.text()) as Envelope<LicenceUploadResult[]>).data[0];
}

describe.each(databases)('hardening (%s)', (kind) => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it('/docs is served outside production only', async () => {
    server = await startServer(kind);
    expect((await call(server, 'GET', '/docs/json')).status).toBe(200);
    await server.close();
    server = await startServer(kind, { env: { NODE_ENV: 'production' } });
    for (const docPath of ['/docs', '/docs/json', '/docs/static/index.html']) {
      const reply = await call(server, 'GET', docPath, undefined, { headers: { accept: 'text/html' } });
      expect(reply.status, docPath).toBe(404);
      expect(reply.body.code).toBe(codes.notFound);
    }
  });

  it('the test licence keys are trusted on a demo installation only, whatever NODE_ENV says later', async () => {
    server = await startServer(kind);
    const demoAdmin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    expect((await uploadExample(server.url, demoAdmin))?.ok).toBe(true);
    await server.close();

    // a production installation later started without NODE_ENV=production: still no test key
    server = await startServer(kind, { env: { NODE_ENV: 'production' } });
    if (server.seed.mode !== 'production') throw new Error('expected a production seed');
    const config = { ...server.config, nodeEnv: 'development', isProduction: false };
    const app = await buildApp({ db: server.handle, config, now: server.clock.now });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const admin = await signIn({ url }, 'admin', server.seed.admin.password, server.seed.admin.tenantCode);
      const result = await uploadExample(url, admin);
      expect(result?.ok).toBe(false);
      expect(result?.msg).toBe(codeMessage(codes.licenceNoTrustedKey, 'en-US'));
    } finally {
      await app.close();
    }
  });

  it('JSON replies carry Cache-Control: no-store (sign-in, signed-in calls, failures)', async () => {
    server = await startServer(kind);
    const token = await signIn(server, 'staff', 'Staff#2026');
    const signInReply = await call(server, 'POST', apiPaths.webLogin, { user: { account: 'staff', password: 'x', tenantCode: '1001' } });
    expect(signInReply.headers.get('cache-control')).toBe('no-store');
    for (const [method, route] of [['GET', apiPaths.menus], ['GET', apiPaths.userDetail], ['GET', apiPaths.licencePermission]] as const) {
      const reply = await call(server, method, route, undefined, { token });
      expect(reply.body.code, route).toBe(0);
      expect(reply.headers.get('cache-control'), route).toBe('no-store');
    }
    expect((await call(server, 'GET', apiPaths.menus)).headers.get('cache-control')).toBe('no-store');
    const logo = await call(server, 'GET', apiPaths.loginLogo);
    expect(logo.headers.get('cache-control')).toBe('no-store');
  });

  it('HSTS only over HTTPS', async () => {
    server = await startServer(kind, { env: { TRUST_PROXY: '1' } });
    expect((await call(server, 'GET', apiPaths.runtimeLoginSettings)).headers.get('strict-transport-security')).toBeNull();
    const https = await call(server, 'GET', apiPaths.runtimeLoginSettings, undefined, { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    await server.close();
    // without a trusted proxy, a client cannot claim HTTPS
    server = await startServer(kind);
    const claimed = await call(server, 'GET', apiPaths.runtimeLoginSettings, undefined, { headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers.get('strict-transport-security')).toBeNull();
  });
});

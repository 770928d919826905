import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths, codes, type SubAppDevOverridePolicy } from '@campus/contracts';
import { loadConfig } from '../../src/config.ts';
import { signedInPreloadScriptSource as inlineScript } from '../../src/http/security-headers.ts';
import { call, signIn, startServer, type TestServer } from '../support/helpers.ts';

/** The page's policy as directive → sources. */
async function policyOf(server: TestServer, path = '/', cookie?: string): Promise<Map<string, string[]>> {
  const csp = (await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} })).headers.get('content-security-policy') ?? '';
  return new Map(csp.split('; ').map((directive) => [directive.split(' ')[0] ?? '', directive.split(' ').slice(1)]));
}

describe('SUBAPP_DEV_OVERRIDES: a developer loading one sub-app from his dev server', () => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('is off by default: the policy admits no dev server and the shell is told none is allowed', async () => {
    expect(loadConfig({}).subAppDevOverrides).toEqual([]);
    expect(loadConfig({ SUBAPP_DEV_OVERRIDES: 'off' }).subAppDevOverrides).toEqual([]);
    server = await startServer('sqlite');
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const reply = await call<SubAppDevOverridePolicy>(server, 'GET', apiPaths.subAppDevOverrides, undefined, { token });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ origins: [] });
    // a browser that says it is a developer's gets nothing more
    for (const cookie of [undefined, 'campus-dev-override=1']) {
      const policy = await policyOf(server, '/', cookie);
      expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-eval'", inlineScript]);
      expect(policy.get('connect-src')?.join(' ')).not.toMatch(/localhost:\*|ws:/);
    }
  });

  it('on: loopback dev servers on any port, for scripts, calls and their hot-reload sockets, in the developer’s browser only', async () => {
    server = await startServer('sqlite', { env: { SUBAPP_DEV_OVERRIDES: 'on' } });
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const reply = await call<SubAppDevOverridePolicy>(server, 'GET', apiPaths.subAppDevOverrides, undefined, { token });
    expect(reply.body.data.origins).toEqual(['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']);
    // everyone else's pages keep the strict policy
    for (const cookie of [undefined, 'campus-dev-override=0', 'other=campus-dev-override=1']) {
      expect((await policyOf(server, '/', cookie)).get('script-src'), cookie).toEqual(["'self'", "'unsafe-eval'", inlineScript]);
    }
    for (const path of ['/', '/qy/operate-log', apiPaths.languages]) {
      const policy = await policyOf(server, path, 'campus.x=1; campus-dev-override=1');
      expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-eval'", inlineScript, 'http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']);
      expect(policy.get('connect-src')).toEqual(expect.arrayContaining(['http://localhost:*', 'ws://localhost:*', 'ws://127.0.0.1:*', 'ws://[::1]:*']));
      expect(policy.get('style-src')).toContain('http://127.0.0.1:*');
      expect(policy.get('default-src')).toEqual(["'self'"]);
    }
  });

  it('a list admits exactly its origins (an https dev host included)', async () => {
    server = await startServer('sqlite', { env: { SUBAPP_DEV_OVERRIDES: 'http://localhost:5173, https://dev.example.com:*' } });
    const token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const reply = await call<SubAppDevOverridePolicy>(server, 'GET', apiPaths.subAppDevOverrides, undefined, { token });
    expect(reply.body.data.origins).toEqual(['http://localhost:5173', 'https://dev.example.com:*']);
    const policy = await policyOf(server, '/', 'campus-dev-override=1');
    expect(policy.get('script-src')).toEqual(["'self'", "'unsafe-eval'", inlineScript, 'http://localhost:5173', 'https://dev.example.com:*']);
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(['ws://localhost:5173', 'wss://dev.example.com:*']));
    expect(policy.get('script-src')).not.toContain('http://127.0.0.1:*');
  });

  it('refuses at start what would let anyone on the way or any host run code in the shell', () => {
    for (const bad of ['http://10.0.0.7:5173', 'http://dev.example.com', 'https://*.example.com', 'http://localhost:5173/src/', 'ftp://localhost', 'yes', 'http://localhost:99999', 'http://user@localhost:5173']) {
      expect(() => loadConfig({ SUBAPP_DEV_OVERRIDES: bad }), bad).toThrow(/SUBAPP_DEV_OVERRIDES/);
    }
  });

  it('the policy needs a session', async () => {
    server = await startServer('sqlite', { env: { SUBAPP_DEV_OVERRIDES: 'on' } });
    const none = await call(server, 'GET', apiPaths.subAppDevOverrides);
    expect(none.status).toBe(401);
    expect(none.body.code).toBe(codes.tokenInvalid);
  });
});

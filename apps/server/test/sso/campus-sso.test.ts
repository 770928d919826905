import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codes } from '@campus/contracts';
import type { IdentityProviderTestResult, IdentityProviderView, OperationLogRow, TenantSettings } from '@campus/contracts';
import type { ProtocolClient, ProviderForProtocol } from '../../src/modules/sso/protocol.ts';
import { AppError } from '../../src/http/envelope.ts';
import { call, databases, runCampus, signIn, startServer, tempDir } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/** A provider that only answers "test connection", saying which secret it was handed. */
class SecretEcho implements ProtocolClient {
  seen: ProviderForProtocol | null = null;
  constructor(readonly kind: 'oidc' | 'cas') {}
  authorizationUrl(): Promise<string> {
    throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
  }
  finish(): Promise<never> {
    throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
  }
  async logoutUrl() {
    return null;
  }
  readLogout(): Promise<never> {
    throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
  }
  async test(provider: ProviderForProtocol): Promise<IdentityProviderTestResult> {
    this.seen = provider;
    return { ok: true, steps: [], clockSkewSeconds: null };
  }
}

const secret = 's3cret-of-the-campus-client';

describe.each(databases)('campus sso (%s)', (kind) => {
  let server: TestServer;
  let env: Record<string, string>;
  let work: string;
  const echo = new SecretEcho('oidc');

  beforeAll(async () => {
    server = await startServer(kind, { ssoClients: { oidc: echo } });
    env = { NODE_ENV: 'test', DATA_DIR: server.config.dataDir, DATABASE_URL: server.config.databaseUrl ?? '', PUBLIC_URL: 'https://campus.example.edu' };
    work = tempDir();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const providers = async (): Promise<IdentityProviderView[]> => {
    const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    return (await call<IdentityProviderView[]>(server, 'GET', apiPaths.identityProviderList, undefined, { token: admin })).body.data;
  };

  it('add reads the provider from a file and the secret from stdin; list never shows the secret; the server opens it', async () => {
    const file = path.join(work, 'keycloak.json');
    fs.writeFileSync(file, JSON.stringify({
      kind: 'oidc',
      name: { 'en-US': 'Campus ID', 'zh-CN': '统一身份认证', 'zh-MO': '統一身份認證' },
      enabled: false,
      oidc: { discoveryUrl: 'https://id.example.edu/realms/campus/.well-known/openid-configuration', clientId: 'campus-shell', scopes: 'openid profile', accountClaim: 'preferred_username' },
    }));
    const added = await runCampus(['sso', 'add', '--tenant', '1001', '--file', file, '--secret-stdin'], env, `${secret}\n`);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added [A-Za-z0-9_-]+ \(oidc, disabled\) for tenant 1001\./);
    expect(added.stdout).toContain(`redirect URI https://campus.example.edu${apiPaths.ssoOidcCallback}`);
    expect(added.stdout).toContain(`back-channel logout https://campus.example.edu${apiPaths.ssoBackchannelLogout}?providerId=`);
    expect(added.stdout).not.toContain(secret);

    const list = await runCampus(['sso', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('tenant 1001  oidc  disabled  "Campus ID"');
    expect(list.stdout).toContain('secret kept (sealed)');
    expect(list.stdout).not.toContain(secret);
    const rows = await server.handle.db.selectFrom('identity_providers').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(secret);

    // the server seals and opens under the same KEK file: test connection hands the provider the stored secret
    const [view] = await providers();
    const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const tested = await call(server, 'POST', apiPaths.identityProviderTest, { id: view!.id, kind: 'oidc', name: view!.name, enabled: false, oidc: { ...view!.oidc, hasClientSecret: undefined } }, { token: admin });
    expect(tested.body.code).toBe(0);
    expect(echo.seen).toMatchObject({ kind: 'oidc', clientSecret: secret });
  });

  it('enable and disable switch the login button; remove takes the provider away; each is in the tenant log', async () => {
    const id = (await providers())[0]!.id;
    const buttons = async () => (await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1001' } })).body.data.identityProviders.map((b) => b.id);
    expect(await buttons()).toEqual([]);
    expect((await runCampus(['sso', 'enable', id], env)).code).toBe(0);
    expect(await buttons()).toEqual([id]);
    expect((await runCampus(['sso', 'disable', id], env)).code).toBe(0);
    expect(await buttons()).toEqual([]);
    const removed = await runCampus(['sso', 'remove', id], env);
    expect(removed.stdout).toContain(`${id} (oidc, tenant 1001) removed.`);
    expect(await providers()).toEqual([]);
    const admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const log = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 20 }, action: 'identity-provider' }, { token: admin });
    expect(log.body.data.map((row) => row.detail?.split(' ')[0])).toEqual(['removed', 'disabled', 'enabled', 'added']);
    expect(log.body.data[0]!.account).toMatch(/^cli:/);
  }, 180_000);

  it('add takes CAS settings as flags', async () => {
    const added = await runCampus(['sso', 'add', '--tenant', '1001', '--kind', 'cas', '--name', 'CAS', '--server-url', 'https://cas.example.edu/cas', '--attribute', 'uid', '--enabled'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`service https://campus.example.edu${apiPaths.ssoCasCallback}`);
    const [view] = await providers();
    expect(view).toMatchObject({ kind: 'cas', enabled: true, name: { 'en-US': 'CAS', 'zh-CN': 'CAS', 'zh-MO': 'CAS' }, cas: { serverUrl: 'https://cas.example.edu/cas', accountAttribute: 'uid' } });
  });

  it('refuses a secret as a flag or in the file, settings that are not valid, and says why (exit 2)', async () => {
    const flag = await runCampus(['sso', 'add', '--tenant', '1001', '--kind', 'oidc', '--name', 'X', '--client-secret', secret], env);
    expect(flag.code).toBe(2);
    const file = path.join(work, 'with-secret.json');
    fs.writeFileSync(file, JSON.stringify({ kind: 'oidc', name: { 'en-US': 'X', 'zh-CN': 'X', 'zh-MO': 'X' }, oidc: { discoveryUrl: 'https://a.example/', clientId: 'c', scopes: '', accountClaim: 'email', clientSecret: secret } }));
    const inFile = await runCampus(['sso', 'add', '--tenant', '1001', '--file', file], env);
    expect(inFile.code).toBe(2);
    expect(inFile.stderr).toContain('the client secret is never in the provider file');
    const plainHttp = await runCampus(['sso', 'add', '--tenant', '1001', '--kind', 'oidc', '--name', 'X', '--discovery-url', 'http://id.example.edu/', '--client-id', 'c'], env);
    expect(plainHttp.code).toBe(2);
    expect(plainHttp.stderr).toContain('The sign-in service settings are not valid: oidc.discoveryUrl');
    const noTenant = await runCampus(['sso', 'add', '--tenant', '9999', '--kind', 'cas', '--name', 'X', '--server-url', 'https://cas.example.edu/cas'], env);
    expect(noTenant.code).toBe(2);
    expect(noTenant.stderr).toContain('no tenant 9999');
    expect((await runCampus(['sso', 'enable', 'nosuch'], env)).stderr).toContain('no identity provider nosuch');
    expect((await runCampus(['sso', 'frobnicate'], env)).code).toBe(2);
    // seven runs of the command: a busy machine takes longer than one test's default
  }, 240_000);
});

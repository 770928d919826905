import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codeMessage, codes } from '@campus/contracts';
import type { IdentityProviderTestResult, IdentityProviderView, OperationLogRow } from '@campus/contracts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { startCasTestServer } from '../support/cas-test-server.ts';
import type { CasTestServer } from '../support/cas-test-server.ts';
import { startOidcTestProvider } from '../support/oidc-test-provider.ts';
import type { OidcTestProvider } from '../support/oidc-test-provider.ts';

// A tenant's system administrator names the identity provider's address; the operator decides which networks the
// server may reach for it (SSO_PROVIDER_NETWORKS, docs/sso.md "Providers on your intranet"), with the real protocol
// clients of services.ts. Unset: public addresses only, so loopback, 169.254.169.254 and the intranet are refused.

const names = { 'en-US': 'Campus ID', 'zh-CN': '统一身份认证', 'zh-MO': '統一身份認證' };
const oidc = (discoveryUrl: string) => ({ kind: 'oidc', name: names, enabled: true, oidc: { discoveryUrl, clientId: 'campus-shell', scopes: 'openid', accountClaim: 'preferred_username' } });
const cas = (serverUrl: string) => ({ kind: 'cas', name: names, enabled: true, cas: { serverUrl, accountAttribute: '' } });

describe.each(databases)('identity providers and the operator\'s networks (%s)', (kind) => {
  let closed: TestServer;
  let opened: TestServer;
  let closedAdmin: string;
  let openedAdmin: string;
  let casServer: CasTestServer;
  let idp: OidcTestProvider;

  beforeAll(async () => {
    // SSO_PROVIDER_NETWORKS unset on one server; the other opens loopback (what helpers.ts gives every test server)
    closed = await startServer(kind, { env: { SSO_PROVIDER_NETWORKS: '' } });
    opened = await startServer(kind);
    closedAdmin = await signIn(closed, 'sysadmin', 'Sysadmin#2026');
    openedAdmin = await signIn(opened, 'sysadmin', 'Sysadmin#2026');
    casServer = await startCasTestServer({ users: { staff: { password: 'pw', attributes: {} } } });
    idp = await startOidcTestProvider({ redirectUris: ['https://campus.example.test/callback'], users: [{ username: 'staff' }] });
  });
  afterAll(async () => {
    await closed?.close();
    await opened?.close();
    await casServer?.close();
    await idp?.close();
  });

  const refusedMessage = (field: string) => codeMessage(codes.ssoProviderAddressRefused, 'en-US', { field, setting: 'SSO_PROVIDER_NETWORKS' });

  it.each([
    ['loopback by address', () => oidc(idp.discoveryUrl), 'oidc.discoveryUrl'],
    ['the cloud metadata address', () => cas('https://169.254.169.254/latest'), 'cas.serverUrl'],
    ['a name resolving to loopback', () => cas(casServer.serverUrl.replace('127.0.0.1', 'localhost')), 'cas.serverUrl'],
    ['loopback as an IPv4-mapped IPv6 address', () => oidc('https://[::ffff:127.0.0.1]/.well-known/openid-configuration'), 'oidc.discoveryUrl'],
    ['an intranet address', () => cas('https://10.1.2.3/cas'), 'cas.serverUrl'],
  ])('refuses a provider on %s, on save and on test connection, naming the setting', async (_what, body, field) => {
    const validations = casServer.validations.length;
    for (const path of [apiPaths.identityProviderSave, apiPaths.identityProviderTest]) {
      const reply = await call(closed, 'POST', path, body(), { token: closedAdmin, language: 'en-US' });
      expect(reply.status, path).toBe(400);
      expect(reply.body.code, path).toBe(codes.ssoProviderAddressRefused);
      expect(reply.body.msg).toBe(refusedMessage(field));
      expect(reply.body.msg).toContain('SSO_PROVIDER_NETWORKS');
      // nothing about the network beyond "refused by policy"
      expect(reply.text).not.toMatch(/127\.0\.0\.1|::1\b|169\.254\.169\.254|10\.1\.2\.3/);
    }
    const list = await call<IdentityProviderView[]>(closed, 'GET', apiPaths.identityProviderList, undefined, { token: closedAdmin });
    expect(list.body.data).toEqual([]);
    expect(casServer.validations.length).toBe(validations);
  });

  it('says it in the caller\'s language', async () => {
    const reply = await call(closed, 'POST', apiPaths.identityProviderSave, cas(casServer.serverUrl), { token: closedAdmin, language: 'zh-CN' });
    expect(reply.body).toMatchObject({ code: codes.ssoProviderAddressRefused, msg: codeMessage(codes.ssoProviderAddressRefused, 'zh-CN', { field: 'cas.serverUrl', setting: 'SSO_PROVIDER_NETWORKS' }) });
  });

  it('a public host name is still saved (the connection is checked when it is made)', async () => {
    const reply = await call<IdentityProviderView>(closed, 'POST', apiPaths.identityProviderSave, cas('https://cas.example.test/cas'), { token: closedAdmin });
    expect(reply.body.code, reply.text).toBe(0);
    await call(closed, 'POST', apiPaths.identityProviderDelete, { id: reply.body.data.id }, { token: closedAdmin });
  });

  it('at sign-in, a provider whose address is now refused: the browser lands with "cannot be reached", the log says why, the provider is not called', async () => {
    // saved while its name was elsewhere; its address is loopback now (as a DNS change would make it)
    const saved = await call<IdentityProviderView>(closed, 'POST', apiPaths.identityProviderSave, cas('https://cas.example.test/cas'), { token: closedAdmin });
    expect(saved.body.code).toBe(0);
    await closed.handle.db.updateTable('identity_providers').set({ settings: JSON.stringify({ serverUrl: casServer.serverUrl, accountAttribute: '' }) }).where('id', '=', saved.body.data.id).execute();
    const start = await fetch(`${closed.url}${apiPaths.ssoStart}?providerId=${saved.body.data.id}&tenantCode=1001&lang=en-US`, { redirect: 'manual' });
    const atCas = new URL(start.headers.get('location') ?? '');
    expect(atCas.href.startsWith(`${casServer.serverUrl}/login`)).toBe(true);
    const service = new URL(atCas.searchParams.get('service') ?? '');
    const validations = casServer.validations.length;
    const back = await fetch(`${closed.url}${apiPaths.ssoCasCallback}?state=${service.searchParams.get('state')}&ticket=ST-1-x`, { redirect: 'manual' });
    const landing = new URL(back.headers.get('location') ?? '', closed.url);
    expect(landing.pathname).toBe('/not-login');
    expect(landing.searchParams.get('code')).toBe(String(codes.ssoProviderUnreachable));
    expect(landing.searchParams.get('msg')).toBe(codeMessage(codes.ssoProviderUnreachable, 'en-US'));
    expect(casServer.validations.length).toBe(validations);
    const log = await call<OperationLogRow[]>(closed, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 10 }, action: 'sso-login' }, { token: closedAdmin });
    expect(log.body.data[0]).toMatchObject({ result: 'failure' });
    expect(log.body.data[0]!.detail).toContain(`provider ${saved.body.data.id}: ssoProviderUnreachable (the address is refused by policy, SSO_PROVIDER_NETWORKS)`);
    expect(log.body.data[0]!.detail).not.toMatch(/127\.0\.0\.1|localhost/);

    // OpenID Connect: Start reads the discovery document first, and is refused there
    const savedOidc = await call<IdentityProviderView>(closed, 'POST', apiPaths.identityProviderSave, oidc('https://idp.example.test/.well-known/openid-configuration'), { token: closedAdmin });
    expect(savedOidc.body.code).toBe(0);
    const settings = { ...savedOidc.body.data.oidc, discoveryUrl: idp.discoveryUrl, hasClientSecret: undefined };
    await closed.handle.db.updateTable('identity_providers').set({ settings: JSON.stringify(settings) }).where('id', '=', savedOidc.body.data.id).execute();
    const oidcStart = await fetch(`${closed.url}${apiPaths.ssoStart}?providerId=${savedOidc.body.data.id}&tenantCode=1001&lang=zh-CN`, { redirect: 'manual' });
    const oidcLanding = new URL(oidcStart.headers.get('location') ?? '', closed.url);
    expect(oidcLanding.pathname).toBe('/not-login');
    expect(oidcLanding.searchParams.get('code')).toBe(String(codes.ssoProviderUnreachable));
    expect(oidcLanding.searchParams.get('msg')).toBe(codeMessage(codes.ssoProviderUnreachable, 'zh-CN'));
    const oidcLog = await call<OperationLogRow[]>(closed, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 10 }, action: 'sso-login' }, { token: closedAdmin });
    expect(oidcLog.body.data.map((row) => row.detail)).toContain(`provider ${savedOidc.body.data.id}: ssoProviderUnreachable (the address is refused by policy, SSO_PROVIDER_NETWORKS)`);
  });

  it('works once the operator opened the network: save, test connection of OIDC and CAS on loopback', async () => {
    for (const body of [oidc(idp.discoveryUrl), cas(casServer.serverUrl), cas(casServer.serverUrl.replace('127.0.0.1', 'localhost'))]) {
      const tested = await call<IdentityProviderTestResult>(opened, 'POST', apiPaths.identityProviderTest, body, { token: openedAdmin });
      expect(tested.body.code, tested.text).toBe(0);
      expect(tested.body.data.steps[0], tested.text).toMatchObject({ step: 'discovery', ok: true });
      const saved = await call<IdentityProviderView>(opened, 'POST', apiPaths.identityProviderSave, body, { token: openedAdmin });
      expect(saved.body.code, saved.text).toBe(0);
    }
    // loopback is what was opened: the metadata address stays refused
    const metadata = await call(opened, 'POST', apiPaths.identityProviderSave, cas('https://169.254.169.254/latest'), { token: openedAdmin });
    expect(metadata.body.code).toBe(codes.ssoProviderAddressRefused);
  });
});

import { randomUUID } from 'node:crypto';
import { SignJWT, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codes, loginTypes } from '@campus/contracts';
import type { IdentityProviderView, UserInfo } from '@campus/contracts';
import { attachServer, call, databases, sha256, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';
import { startOidcTestProvider } from '../support/oidc-test-provider.ts';
import type { OidcTestProvider } from '../support/oidc-test-provider.ts';
import { sendSingleLogout, startCasTestServer } from '../support/cas-test-server.ts';
import type { CasTestServer } from '../support/cas-test-server.ts';

// The whole external sign-in with the real protocol clients of services.ts: oidc-provider on loopback (its login
// form, its back-channel logout) and the CAS 3.0 test server's documented answers, through this server's Start,
// callbacks, landing ticket and logout.

const names = { 'en-US': 'Campus ID', 'zh-CN': '统一身份认证', 'zh-MO': '統一身份認證' };

async function get(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  expect(res.status, url).toBe(302);
  return new URL(res.headers.get('location') ?? '', url);
}

describe.each(databases)('external sign-in with the real protocol clients (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  let idp: OidcTestProvider;
  let cas: CasTestServer;
  let oidcView: IdentityProviderView;
  let casView: IdentityProviderView;

  const save = async (body: unknown) => {
    const reply = await call<IdentityProviderView>(server, 'POST', apiPaths.identityProviderSave, body, { token: admin });
    expect(reply.body.code, reply.text).toBe(0);
    return reply.body.data;
  };
  const exchange = async (landing: URL) => {
    const reply = await call<{ token: string }>(server, 'POST', apiPaths.ssoExchangeTicket, { ticket: landing.searchParams.get('token'), tenantCode: landing.searchParams.get('tenantCode') });
    expect(reply.body.code, reply.text).toBe(0);
    return reply.body.data.token;
  };

  beforeAll(async () => {
    server = await startServer(kind);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    // the provider's back-channel URI names the provider's id: saved first, pointed at the provider once it runs
    const placeholder = { discoveryUrl: 'https://idp.example.test/.well-known/openid-configuration', clientId: 'x', scopes: 'openid profile', accountClaim: 'preferred_username' };
    oidcView = await save({ kind: 'oidc', name: names, enabled: true, oidc: placeholder });
    idp = await startOidcTestProvider({ redirectUris: [oidcView.callbackUrl], backchannelLogoutUri: oidcView.backchannelLogoutUrl, users: [{ username: 'staff' }, { username: 'stranger' }] });
    oidcView = await save({ id: oidcView.id, kind: 'oidc', name: names, enabled: true, oidc: { ...placeholder, discoveryUrl: idp.discoveryUrl, clientId: idp.clientId, clientSecret: idp.clientSecret } });
    cas = await startCasTestServer({ users: { staff: { password: 'pw', attributes: { uid: 'staff' } } } });
    casView = await save({ kind: 'cas', name: { ...names, 'en-US': 'CAS' }, enabled: true, cas: { serverUrl: cas.serverUrl, accountAttribute: 'uid' } });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
    await cas?.close();
  });

  it('OpenID Connect: the provider\'s login form, the landing, a session of login type 4; Quit goes to the provider\'s logout', async () => {
    const atProvider = await get(`${server.url}${apiPaths.ssoStart}?providerId=${oidcView.id}&tenantCode=1001&fromPath=%2Fqy%2F`);
    expect(atProvider.origin).toBe(idp.issuer);
    const { callbackUrl } = await idp.signIn(atProvider.href, 'staff');
    const landing = await get(callbackUrl.href);
    expect(landing.pathname).toBe('/not-login');
    expect(landing.searchParams.get('code')).toBe('0');
    expect(landing.searchParams.get('fromPath')).toBe('/qy/');
    const token = await exchange(landing);
    const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
    expect(user.body.data).toMatchObject({ code: 'staff', loginType: loginTypes.thirdParty });
    // the code is used once: the same callback again is a replay
    expect((await get(callbackUrl.href)).searchParams.get('code')).toBe(String(codes.ssoStateInvalid));

    const out = await call<{ providerLogoutUrl: string }>(server, 'POST', apiPaths.logout, {}, { token });
    const logout = new URL(out.body.data.providerLogoutUrl);
    expect(logout.origin).toBe(idp.issuer);
    expect(logout.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
    expect(logout.searchParams.get('id_token_hint')).toBeTruthy();
  });

  it('OpenID Connect: someone the tenant does not know lands with ssoAccountUnknown', async () => {
    const atProvider = await get(`${server.url}${apiPaths.ssoStart}?providerId=${oidcView.id}&tenantCode=1001&lang=en-US`);
    const { callbackUrl } = await idp.signIn(atProvider.href, 'stranger');
    expect((await get(callbackUrl.href)).searchParams.get('code')).toBe(String(codes.ssoAccountUnknown));
  });

  it("OpenID Connect: a logout at the provider ends the session on a second node through the back-channel", async () => {
    const second = await attachServer(server);
    try {
      const atProvider = await get(`${server.url}${apiPaths.ssoStart}?providerId=${oidcView.id}&tenantCode=1001`);
      const { callbackUrl, browser } = await idp.signIn(atProvider.href, 'staff');
      const token = await exchange(await get(callbackUrl.href));
      expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
      await idp.logout(browser);
      expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('OpenID Connect: a logout token acts once, on one node of two; its replay and one without jti answer 400 and end nothing', async () => {
    const second = await attachServer(server);
    try {
      const backchannel = `${apiPaths.ssoBackchannelLogout}?providerId=${oidcView.id}`;
      const post = async (at: { url: string }, logoutToken: string) => {
        const res = await fetch(`${at.url}${backchannel}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ logout_token: logoutToken }).toString() });
        return { status: res.status, body: (await res.json()) as { code: number; data: { ended: number } | null } };
      };
      const live = async (token: string) => (await call(second, 'GET', apiPaths.userDetail, undefined, { token })).status === 200;
      const sidOf = async (token: string) => (await server.handle.db.selectFrom('sso_sessions').select('provider_session').where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow()).provider_session;
      // a logout token as the provider signs one (its key, its issuer, this client)
      const kid = idp.signingKid();
      const key = await importJWK(idp.signingKeys().find((k) => k.kid === kid)!, 'RS256');
      const logoutToken = (claims: Record<string, unknown>) =>
        new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} }, ...claims })
          .setProtectedHeader({ alg: 'RS256', kid, typ: 'logout+jwt' })
          .setIssuer(idp.issuer)
          .setAudience(idp.clientId)
          .setIssuedAt(Math.floor(server.clock.now() / 1000))
          .setExpirationTime(Math.floor(server.clock.now() / 1000) + 120)
          .sign(key);

      const { callbackUrl, browser } = await idp.signIn((await get(`${server.url}${apiPaths.ssoStart}?providerId=${oidcView.id}&tenantCode=1001`)).href, 'staff');
      const first = await exchange(await get(callbackUrl.href));
      const sid = await sidOf(first);
      expect(sid).toBeTruthy();
      const captured = await logoutToken({ sid, jti: randomUUID() });
      const replies = await Promise.all([post(server, captured), post(second, captured)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
      expect(replies.find((r) => r.status === 200)!.body.data).toEqual({ ended: 1 });
      expect(replies.find((r) => r.status === 400)!.body.code).toBe(codes.ssoTokenRejected);
      expect(await live(first)).toBe(false);

      // signed in again in the same provider session: the captured token ends nothing now, nor one without jti
      const again = await exchange(await get((await idp.signIn((await get(`${server.url}${apiPaths.ssoStart}?providerId=${oidcView.id}&tenantCode=1001`)).href, 'staff', { browser })).callbackUrl.href));
      expect(await sidOf(again)).toBe(sid);
      expect(await post(second, captured)).toMatchObject({ status: 400, body: { code: codes.ssoTokenRejected } });
      expect(await post(server, await logoutToken({ sid }))).toMatchObject({ status: 400, body: { code: codes.ssoTokenRejected } });
      expect(await live(again)).toBe(true);
      // the provider's own next logout token still acts
      await idp.logout(browser);
      expect(await live(again)).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('CAS: the service ticket validated at p3/serviceValidate signs in; single logout ends the session', async () => {
    const atCas = await get(`${server.url}${apiPaths.ssoStart}?providerId=${casView.id}&tenantCode=1001`);
    const service = atCas.searchParams.get('service')!;
    expect(service.startsWith(casView.callbackUrl)).toBe(true);
    const ticket = cas.issueTicket(service, 'staff');
    const back = new URL(service);
    back.searchParams.set('ticket', ticket);
    const landing = await get(back.href);
    expect(landing.searchParams.get('code')).toBe('0');
    const token = await exchange(landing);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
    expect(cas.validations.at(-1)).toMatchObject({ ticket, answer: 'success' });

    expect(await sendSingleLogout(service, ticket)).toBe(200);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
  });

  it('CAS: a refused ticket lands with ssoTicketRejected', async () => {
    const atCas = await get(`${server.url}${apiPaths.ssoStart}?providerId=${casView.id}&tenantCode=1001`);
    const back = new URL(atCas.searchParams.get('service')!);
    back.searchParams.set('ticket', 'ST-not-issued');
    expect((await get(back.href)).searchParams.get('code')).toBe(String(codes.ssoTicketRejected));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, codeMessage, codes, loginTypes, ssoLoginTicketSeconds, ssoRoundTripSeconds } from '@campus/contracts';
import type { IdentityProviderTestResult, IdentityProviderView, OperationLogRow, TenantSettings, UserInfo } from '@campus/contracts';
import { AppError } from '../../src/http/envelope.ts';
import { AccountRepository } from '../../src/modules/account/account-repository.ts';
import { AccountService } from '../../src/modules/account/account-service.ts';
import { AuthRepository } from '../../src/modules/sessions/auth-repository.ts';
import { SessionService } from '../../src/modules/sessions/session-service.ts';
import { createServices } from '../../src/services.ts';
import type { ProtocolClient, ProviderForProtocol, ProviderLogout, RoundTrip, SignedInAtProvider } from '../../src/modules/sso/protocol.ts';
import { attachServer, call, databases, sha256, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

/**
 * A test double that plays an identity provider of one kind: its login "page" is a URL naming the round trip; the
 * test then comes back with a code it chose, which names who signed in (the people below). It checks what a provider
 * would (the round trip it was sent, the client secret) and records what the flow handed it.
 */
class PlayedProvider implements ProtocolClient {
  readonly people = new Map<string, SignedInAtProvider>();
  readonly trips: RoundTrip[] = [];
  readonly tested: ProviderForProtocol[] = [];
  readonly expectedSecret = 'the-client-secret';

  constructor(readonly kind: 'oidc' | 'cas') {}

  async authorizationUrl(provider: ProviderForProtocol, roundTrip: RoundTrip): Promise<string> {
    this.trips.push(roundTrip);
    return `https://idp.example.test/${this.kind}/login?client=${provider.id}&state=${roundTrip.state}&redirect_uri=${encodeURIComponent(roundTrip.redirectUri)}`;
  }

  async finish(provider: ProviderForProtocol, roundTrip: RoundTrip, callbackUrl: URL): Promise<SignedInAtProvider> {
    if (provider.kind === 'oidc' && provider.clientSecret !== this.expectedSecret) throw new AppError(codes.ssoTokenRejected, { status: 401 });
    if (!this.trips.some((trip) => trip.state === roundTrip.state && trip.nonce === roundTrip.nonce && trip.codeVerifier === roundTrip.codeVerifier)) {
      throw new AppError(codes.ssoTokenRejected, { status: 401 });
    }
    const code = callbackUrl.searchParams.get(this.kind === 'oidc' ? 'code' : 'ticket') ?? '';
    if (code === 'down') throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
    const person = this.people.get(code);
    if (!person) throw new AppError(this.kind === 'oidc' ? codes.ssoTokenRejected : codes.ssoTicketRejected, { status: 401 });
    return person;
  }

  async logoutUrl(_provider: ProviderForProtocol, session: { idToken: string | null }, postLogoutRedirectUri: string): Promise<string | null> {
    if (this.kind === 'cas') return null;
    return `https://idp.example.test/logout?id_token_hint=${session.idToken}&post_logout_redirect_uri=${encodeURIComponent(postLogoutRedirectUri)}`;
  }

  /** The server's clock (a logout message's jti is acceptable for 10 minutes by it). */
  now: () => number = Date.now;

  /** A logout message is `sid:<sid>` or `sub:<subject>`, then `:<jti>` when it has one (a logout token's jti). */
  async readLogout(_provider: ProviderForProtocol, form: Record<string, string>): Promise<ProviderLogout> {
    const message = form.logout_token ?? form.logoutRequest ?? '';
    const [kind, value, jti] = message.split(':');
    const once = jti ? { once: { id: jti, acceptableUntil: this.now() + 600_000 } } : {};
    if (kind === 'sid' && value) return { providerSession: value, ...once };
    if (kind === 'sub' && value) return { subject: value, ...once };
    throw new AppError(codes.ssoTokenRejected, { status: 400 });
  }

  async test(provider: ProviderForProtocol): Promise<IdentityProviderTestResult> {
    this.tested.push(provider);
    const secretOk = provider.kind !== 'oidc' || provider.clientSecret === this.expectedSecret;
    return { ok: secretOk, steps: [{ step: 'discovery', ok: true, detail: 'found' }, { step: 'keys', ok: secretOk, detail: secretOk ? 'ok' : 'wrong secret' }], clockSkewSeconds: 0 };
  }
}

const names = { 'en-US': 'Campus ID', 'zh-CN': '统一身份认证', 'zh-MO': '統一身份認證' };
const oidcSettings = { discoveryUrl: 'https://idp.example.test/.well-known/openid-configuration', clientId: 'campus-shell', scopes: 'openid profile email', accountClaim: 'preferred_username' };

function locationOf(reply: { status: number; headers: Headers }): URL {
  expect(reply.status).toBe(302);
  return new URL(reply.headers.get('location') ?? '', 'http://landing.test');
}

async function get(server: { url: string }, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { redirect: 'manual', headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function postForm(server: { url: string }, path: string, form: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string; data: unknown } };
}

describe.each(databases)('external sign-in through an identity provider (%s)', (kind) => {
  let server: TestServer;
  let admin: string;
  const oidc = new PlayedProvider('oidc');
  const cas = new PlayedProvider('cas');
  let oidcProvider: IdentityProviderView;
  let casProvider: IdentityProviderView;

  /** Start → the played provider's login → the callback with `code`: the landing's URL. */
  async function roundTrip(providerId: string, code: string, options: { fromPath?: string; lang?: string; kind?: 'oidc' | 'cas' } = {}): Promise<URL> {
    const query = new URLSearchParams({ providerId, tenantCode: '1001', ...(options.fromPath !== undefined ? { fromPath: options.fromPath } : {}), ...(options.lang ? { lang: options.lang } : {}) });
    const atProvider = locationOf(await get(server, `${apiPaths.ssoStart}?${query.toString()}`));
    expect(atProvider.origin).toBe('https://idp.example.test');
    const state = atProvider.searchParams.get('state') ?? '';
    const callbackKind = options.kind ?? (atProvider.pathname.startsWith('/cas') ? 'cas' : 'oidc');
    const back = callbackKind === 'oidc' ? `${apiPaths.ssoOidcCallback}?code=${code}&state=${state}` : `${apiPaths.ssoCasCallback}?state=${state}&ticket=${code}`;
    return locationOf(await get(server, back));
  }

  async function exchange(landing: URL) {
    return call<{ token: string; tenantCode: string }>(server, 'POST', apiPaths.ssoExchangeTicket, { ticket: landing.searchParams.get('token'), tenantCode: landing.searchParams.get('tenantCode') }, { language: 'en-US' });
  }

  async function logRows(action: string): Promise<OperationLogRow[]> {
    const reply = await call<OperationLogRow[]>(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 50 }, action }, { token: admin });
    return reply.body.data;
  }

  beforeAll(async () => {
    server = await startServer(kind, { ssoClients: { oidc, cas } });
    oidc.now = server.clock.now;
    cas.now = server.clock.now;
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    oidc.people.set('staff-code', { account: 'staff', subject: 'sub-staff', providerSession: 'sid-1', idToken: 'id.token.staff' });
    oidc.people.set('stranger-code', { account: 'nobody-here', subject: 'sub-x', providerSession: 'sid-x', idToken: 'id.token.x' });
    oidc.people.set('nosub-code', { account: 'nosub', subject: 'sub-nosub', providerSession: 'sid-n', idToken: 'id.token.n' });
    oidc.people.set('expired-code', { account: 'expired', subject: 'sub-expired', providerSession: 'sid-e', idToken: 'id.token.e' });
    cas.people.set('ST-1', { account: 'staff', subject: 'staff', providerSession: 'ST-1', idToken: null });
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('the tenant administrator keeps the providers', () => {
    it('adds an OIDC provider: the secret is sealed at rest and never answered, the addresses to register are absolute', async () => {
      const reply = await call<IdentityProviderView>(server, 'POST', apiPaths.identityProviderSave, { kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, clientSecret: oidc.expectedSecret } }, { token: admin });
      expect(reply.body.code).toBe(0);
      oidcProvider = reply.body.data;
      expect(oidcProvider).toMatchObject({ kind: 'oidc', tenantCode: '1001', enabled: true, cas: null, oidc: { ...oidcSettings, hasClientSecret: true } });
      expect(reply.text).not.toContain(oidc.expectedSecret);
      expect(oidcProvider.callbackUrl).toBe(`${server.url}${apiPaths.ssoOidcCallback}`);
      expect(oidcProvider.backchannelLogoutUrl).toBe(`${server.url}${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`);
      const row = await server.handle.db.selectFrom('identity_providers').selectAll().where('id', '=', oidcProvider.id).executeTakeFirstOrThrow();
      expect(row.client_secret_sealed).toMatch(/^kek1:/);
      expect(JSON.stringify(row)).not.toContain(oidc.expectedSecret);
      const list = await call<IdentityProviderView[]>(server, 'GET', apiPaths.identityProviderList, undefined, { token: admin });
      expect(list.body.data.map((p) => p.id)).toEqual([oidcProvider.id]);
      expect(list.text).not.toContain(oidc.expectedSecret);
      const log = await logRows('identity-provider');
      expect(log[0]).toMatchObject({ account: 'sysadmin', result: 'success' });
      expect(JSON.stringify(log)).not.toContain(oidc.expectedSecret);
    });

    it('a change without a secret keeps the stored one; openid is always asked for', async () => {
      const reply = await call<IdentityProviderView>(server, 'POST', apiPaths.identityProviderSave, { id: oidcProvider.id, kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, scopes: 'email profile' } }, { token: admin });
      expect(reply.body.data.oidc).toMatchObject({ hasClientSecret: true, scopes: 'openid email profile' });
      oidcProvider = reply.body.data;
    });

    it('adds a CAS provider; its callback is the service address', async () => {
      const reply = await call<IdentityProviderView>(server, 'POST', apiPaths.identityProviderSave, { kind: 'cas', name: { ...names, 'en-US': 'CAS' }, enabled: true, cas: { serverUrl: 'https://cas.example.test/cas/', accountAttribute: '' } }, { token: admin });
      expect(reply.body.code).toBe(0);
      casProvider = reply.body.data;
      expect(casProvider).toMatchObject({ kind: 'cas', oidc: null, cas: { serverUrl: 'https://cas.example.test/cas', accountAttribute: '' }, backchannelLogoutUrl: '' });
      expect(casProvider.callbackUrl).toBe(`${server.url}${apiPaths.ssoCasCallback}`);
    });

    it.each([
      [{ kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, discoveryUrl: 'http://idp.example.test/.well-known/openid-configuration' } }, 'oidc.discoveryUrl'],
      [{ kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, discoveryUrl: 'https://user:pw@idp.example.test/' } }, 'oidc.discoveryUrl'],
      [{ kind: 'oidc', name: { ...names, 'zh-MO': '  ' }, enabled: true, oidc: oidcSettings }, 'name.zh-MO'],
      [{ kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, scopes: 'openid "x"' } }, 'oidc.scopes'],
      [{ kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, accountClaim: '' } }, 'oidc.accountClaim'],
      [{ kind: 'oidc', name: names, enabled: true }, 'oidc'],
      [{ kind: 'cas', name: names, enabled: true, cas: { serverUrl: 'ftp://cas.example.test/cas', accountAttribute: '' } }, 'cas.serverUrl'],
      [{ kind: 'cas', name: names, enabled: true, cas: { serverUrl: 'https://cas.example.test/cas', accountAttribute: 'a b' } }, 'cas.accountAttribute'],
    ])('refuses settings that are not valid, naming the field (%#)', async (body, field) => {
      const reply = await call(server, 'POST', apiPaths.identityProviderSave, body, { token: admin, language: 'en-US' });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: codes.ssoProviderConfigInvalid, msg: `The sign-in service settings are not valid: ${field}` });
    });

    it('http is taken on loopback only (a provider on this machine)', async () => {
      const body = { kind: 'oidc', name: names, enabled: false, oidc: { ...oidcSettings, discoveryUrl: 'http://127.0.0.1:9/.well-known/openid-configuration' } };
      const reply = await call<IdentityProviderView>(server, 'POST', apiPaths.identityProviderTest, body, { token: admin });
      expect(reply.body.code).toBe(0);
    });

    it('test connection uses the settings sent, and the stored secret when the request sends none', async () => {
      const withStored = await call<IdentityProviderTestResult>(server, 'POST', apiPaths.identityProviderTest, { id: oidcProvider.id, kind: 'oidc', name: names, enabled: true, oidc: oidcSettings }, { token: admin });
      expect(withStored.body.data.ok).toBe(true);
      expect(oidc.tested.at(-1)).toMatchObject({ id: oidcProvider.id, clientSecret: oidc.expectedSecret });
      const withOther = await call<IdentityProviderTestResult>(server, 'POST', apiPaths.identityProviderTest, { id: oidcProvider.id, kind: 'oidc', name: names, enabled: true, oidc: { ...oidcSettings, clientSecret: 'another' } }, { token: admin });
      expect(withOther.body.data.ok).toBe(false);
      expect(withOther.text).not.toContain(oidc.expectedSecret);
    });

    it('only a system administrator, and only of his own tenant', async () => {
      const staff = await signIn(server, 'staff', 'Staff#2026');
      for (const [method, path, body] of [
        ['GET', apiPaths.identityProviderList, undefined],
        ['POST', apiPaths.identityProviderSave, { kind: 'cas', name: names, enabled: true, cas: { serverUrl: 'https://cas.example.test/cas', accountAttribute: '' } }],
        ['POST', apiPaths.identityProviderDelete, { id: oidcProvider.id }],
        ['POST', apiPaths.identityProviderTest, { id: oidcProvider.id, kind: 'oidc', name: names, enabled: true, oidc: oidcSettings }],
      ] as const) {
        const reply = await call(server, method, path, body, { token: staff });
        expect(reply.status, path).toBe(403);
        expect(reply.body.code, path).toBe(codes.noPermission);
      }
      const accounts = new AccountService({ repo: new AccountRepository(server.handle.db), digestMode: server.config.nationalCrypto ? 'sm3' : 'sha256', now: Date.now });
      const branchAdmin = await accounts.createUser({ tenantCode: '1002', account: 'branchadmin', name: 'Branch Admin', password: 'Branch#2026', isSystemAdmin: true });
      // a session of the other tenant's system administrator (he holds no sub-system the seed granted)
      const sessions = new SessionService({ repo: new AuthRepository(server.handle.db, server.handle.dialect), idleMs: 3600_000, maxMs: 3600_000, now: server.clock.now });
      const other = await sessions.create({ id: branchAdmin, tenantCode: '1002', account: 'branchadmin' }, loginTypes.password);
      expect((await call<IdentityProviderView[]>(server, 'GET', apiPaths.identityProviderList, undefined, { token: other })).body.data).toEqual([]);
      const change = await call(server, 'POST', apiPaths.identityProviderSave, { id: oidcProvider.id, kind: 'oidc', name: names, enabled: false, oidc: oidcSettings }, { token: other });
      expect(change.body.code).toBe(codes.ssoProviderUnknown);
      expect((await call(server, 'POST', apiPaths.identityProviderDelete, { id: oidcProvider.id }, { token: other })).body.code).toBe(codes.ssoProviderUnknown);
      const settings = await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1002' } });
      expect(settings.body.data.identityProviders).toEqual([]);
    });

    it("the login page's tenant settings list the enabled providers, named in the caller's language", async () => {
      const zh = await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1001', language: 'zh-MO' } });
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect([...zh.body.data.identityProviders].sort(byId)).toEqual(
        [
          { id: oidcProvider.id, kind: 'oidc', name: '統一身份認證' },
          { id: casProvider.id, kind: 'cas', name: '統一身份認證' },
        ].sort(byId),
      );
      const en = await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1001', language: 'en-US' } });
      expect(en.body.data.identityProviders.map((p) => p.name).sort()).toEqual(['CAS', 'Campus ID']);
    });
  });

  describe('signing in', () => {
    it('Start stores the round trip hashed and sends the browser to the provider; the callback lands with a one-time ticket', async () => {
      const landing = await roundTrip(oidcProvider.id, 'staff-code', { fromPath: '/qy/home?tab=1' });
      const trip = oidc.trips.at(-1)!;
      expect(trip.redirectUri).toBe(`${server.url}${apiPaths.ssoOidcCallback}`);
      expect(trip.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = await server.handle.db.selectFrom('sso_round_trips').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(trip.state);
      expect(landing.pathname).toBe('/not-login');
      expect(Object.fromEntries(landing.searchParams)).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), tenantCode: '1001', code: '0', fromPath: '/qy/home?tab=1' });
      const tickets = await server.handle.db.selectFrom('sso_login_tickets').selectAll().execute();
      expect(JSON.stringify(tickets)).not.toContain(landing.searchParams.get('token'));
      expect(JSON.stringify(tickets)).not.toContain('id.token.staff');

      const exchanged = await exchange(landing);
      expect(exchanged.body.code).toBe(0);
      expect(exchanged.body.data.tenantCode).toBe('1001');
      const token = exchanged.body.data.token;
      expect(token).not.toBe(landing.searchParams.get('token'));
      const user = await call<UserInfo>(server, 'GET', apiPaths.userDetail, undefined, { token });
      expect(user.body.data).toMatchObject({ code: 'staff', loginType: loginTypes.thirdParty });
      const log = await logRows('sso-login');
      expect(log[0]).toMatchObject({ account: 'staff', result: 'success' });
    });

    it('the ticket is exchanged once, and not after 60 s', async () => {
      const landing = await roundTrip(oidcProvider.id, 'staff-code');
      expect((await exchange(landing)).body.code).toBe(0);
      const again = await exchange(landing);
      expect(again.status).toBe(401);
      expect(again.body).toMatchObject({ code: codes.ssoLoginTicketInvalid, msg: codeMessage(codes.ssoLoginTicketInvalid, 'en-US') });

      const late = await roundTrip(oidcProvider.id, 'staff-code');
      server.clock.advance(ssoLoginTicketSeconds * 1000 + 1);
      expect((await exchange(late)).body.code).toBe(codes.ssoLoginTicketInvalid);
      const wrongTenant = await roundTrip(oidcProvider.id, 'staff-code');
      const other = await call(server, 'POST', apiPaths.ssoExchangeTicket, { ticket: wrongTenant.searchParams.get('token'), tenantCode: '1002' });
      expect(other.body.code).toBe(codes.ssoLoginTicketInvalid);
    });

    it('a round trip is used once: a replayed or changed state, or one older than its life, lands with ssoStateInvalid', async () => {
      const start = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${oidcProvider.id}&tenantCode=1001&lang=en-US`));
      const state = start.searchParams.get('state')!;
      const first = locationOf(await get(server, `${apiPaths.ssoOidcCallback}?code=staff-code&state=${state}`));
      expect(first.searchParams.get('code')).toBe('0');
      const replay = locationOf(await get(server, `${apiPaths.ssoOidcCallback}?code=staff-code&state=${state}`));
      expect(Object.fromEntries(replay.searchParams)).toEqual({ code: String(codes.ssoStateInvalid), msg: codeMessage(codes.ssoStateInvalid, 'zh-CN') });
      const changed = locationOf(await get(server, `${apiPaths.ssoOidcCallback}?code=staff-code&state=${state.slice(0, -2)}xx`, { language: 'en-US' }));
      expect(changed.searchParams.get('msg')).toBe(codeMessage(codes.ssoStateInvalid, 'en-US'));

      const slow = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${oidcProvider.id}&tenantCode=1001`));
      server.clock.advance(ssoRoundTripSeconds * 1000 + 1);
      const expired = locationOf(await get(server, `${apiPaths.ssoOidcCallback}?code=staff-code&state=${slow.searchParams.get('state')}`));
      expect(expired.searchParams.get('code')).toBe(String(codes.ssoStateInvalid));
      // an OIDC round trip's state is no CAS callback's
      const crossed = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${oidcProvider.id}&tenantCode=1001`));
      const asCas = locationOf(await get(server, `${apiPaths.ssoCasCallback}?ticket=ST-1&state=${crossed.searchParams.get('state')}`));
      expect(asCas.searchParams.get('code')).toBe(String(codes.ssoStateInvalid));
    });

    it("each failure lands at /not-login with its own code and message in the round trip's language, and is logged", async () => {
      const unknown = await roundTrip(oidcProvider.id, 'stranger-code', { lang: 'en-US' });
      expect(Object.fromEntries(unknown.searchParams)).toEqual({ code: String(codes.ssoAccountUnknown), msg: codeMessage(codes.ssoAccountUnknown, 'en-US') });
      await server.handle.db.updateTable('users').set({ is_disabled: 1 }).where('account', '=', 'expired').execute();
      const disabled = await roundTrip(oidcProvider.id, 'expired-code', { lang: 'zh-MO' });
      expect(Object.fromEntries(disabled.searchParams)).toEqual({ code: String(codes.accountDisabled), msg: codeMessage(codes.accountDisabled, 'zh-MO') });
      await server.handle.db.updateTable('users').set({ is_disabled: 0 }).where('account', '=', 'expired').execute();
      const refused = await roundTrip(oidcProvider.id, 'forged-code', { lang: 'en-US' });
      expect(refused.searchParams.get('code')).toBe(String(codes.ssoTokenRejected));
      const down = await roundTrip(oidcProvider.id, 'down', { lang: 'en-US' });
      expect(down.searchParams.get('code')).toBe(String(codes.ssoProviderUnreachable));
      const noProvider = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=nosuchprovider&tenantCode=1001&lang=en-US`));
      expect(noProvider.searchParams.get('code')).toBe(String(codes.ssoProviderUnknown));
      const otherTenant = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${oidcProvider.id}&tenantCode=1002`));
      expect(otherTenant.searchParams.get('code')).toBe(String(codes.ssoProviderUnknown));

      const log = await logRows('sso-login');
      const lines = log.map((row) => `${row.account} ${row.result} ${row.detail}`);
      expect(lines).toContain(`nobody-here no-local-account provider ${oidcProvider.id}: ssoAccountUnknown`);
      expect(lines).toContain(`expired disabled provider ${oidcProvider.id}: accountDisabled`);
      expect(lines).toContain(` failure provider ${oidcProvider.id}: ssoTokenRejected`);
      expect(lines).toContain(` failure provider ${oidcProvider.id}: ssoProviderUnreachable`);
      expect(lines).toContain(' failure provider nosuchprovider: ssoProviderUnknown');
    });

    it('a user without any sub-system gets no session: the exchange answers noSubsystem', async () => {
      const landing = await roundTrip(oidcProvider.id, 'nosub-code');
      expect(landing.searchParams.get('code')).toBe('0');
      const reply = await exchange(landing);
      expect(reply.body.code).toBe(codes.noSubsystem);
      expect(JSON.stringify(reply.body.data ?? null)).not.toContain('token');
    });

    it('a session of login type 4 has no forced password change, even where a password sign-in would', async () => {
      const landing = await roundTrip(oidcProvider.id, 'expired-code');
      const token = (await exchange(landing)).body.data.token;
      const reply = await call(server, 'POST', apiPaths.operationLogSearch, { page: { index: 1, size: 1 } }, { token });
      expect(reply.body.code).not.toBe(codes.passwordChangeRequired);
      const row = await server.handle.db.selectFrom('sessions').select(['login_type', 'password_change_required']).where('account', '=', 'expired').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(Number(row.login_type)).toBe(loginTypes.thirdParty);
      expect(Number(row.password_change_required)).toBe(0);
    });

    it('fromPath survives as a path on this server only', async () => {
      for (const [given, kept] of [
        ['/qy/home', '/qy/home'],
        ['https://evil.example/x', null],
        ['//evil.example/x', null],
        ['/\\evil.example', null],
        ['javascript:alert(1)', null],
      ] as const) {
        const landing = await roundTrip(oidcProvider.id, 'staff-code', { fromPath: given });
        expect(landing.searchParams.get('code'), given).toBe('0');
        expect(landing.searchParams.get('fromPath'), given).toBe(kept);
      }
    });

    it('CAS: the service ticket signs in the same way', async () => {
      const landing = await roundTrip(casProvider.id, 'ST-1');
      expect(landing.searchParams.get('code')).toBe('0');
      expect(cas.trips.at(-1)).toMatchObject({ codeVerifier: '', redirectUri: `${server.url}${apiPaths.ssoCasCallback}` });
      expect((await exchange(landing)).body.code).toBe(0);
      const refused = await roundTrip(casProvider.id, 'ST-unknown', { lang: 'en-US' });
      expect(refused.searchParams.get('code')).toBe(String(codes.ssoTicketRejected));
    });

    it('a disabled provider is no button and no Start', async () => {
      await call(server, 'POST', apiPaths.identityProviderSave, { id: casProvider.id, kind: 'cas', name: { ...names, 'en-US': 'CAS' }, enabled: false, cas: casProvider.cas }, { token: admin });
      const settings = await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1001' } });
      expect(settings.body.data.identityProviders.map((p) => p.id)).toEqual([oidcProvider.id]);
      const start = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${casProvider.id}&tenantCode=1001`));
      expect(start.searchParams.get('code')).toBe(String(codes.ssoProviderUnknown));
      await call(server, 'POST', apiPaths.identityProviderSave, { id: casProvider.id, kind: 'cas', name: { ...names, 'en-US': 'CAS' }, enabled: true, cas: casProvider.cas }, { token: admin });
    });
  });

  describe('logging out', () => {
    it("Quit answers where the browser ends the provider's session; a password session gets null", async () => {
      const token = (await exchange(await roundTrip(oidcProvider.id, 'staff-code'))).body.data.token;
      const out = await call<{ providerLogoutUrl: string }>(server, 'POST', apiPaths.logout, {}, { token });
      expect(out.body.code).toBe(0);
      const url = new URL(out.body.data.providerLogoutUrl);
      expect(url.origin).toBe('https://idp.example.test');
      expect(url.searchParams.get('id_token_hint')).toBe('id.token.staff');
      expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${server.url}/login`);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
      const casToken = (await exchange(await roundTrip(casProvider.id, 'ST-1'))).body.data.token;
      expect((await call(server, 'POST', apiPaths.logout, {}, { token: casToken })).body.data).toBeNull();
      const password = await signIn(server, 'staff', 'Staff#2026');
      expect((await call(server, 'POST', apiPaths.logout, {}, { token: password })).body).toMatchObject({ code: 0, data: null });
    });

    it("the provider's back-channel logout ends the sessions it names on every node", async () => {
      const second = await attachServer(server, {}, { ssoClients: { oidc, cas } });
      try {
        oidc.people.set('staff-code-1', { account: 'staff', subject: 'sub-staff', providerSession: 'sid-bc-1', idToken: 'id.token.1' });
        oidc.people.set('staff-code-2', { account: 'staff', subject: 'sub-staff', providerSession: 'sid-bc-2', idToken: 'id.token.2' });
        const one = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-1'))).body.data.token;
        const two = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-2'))).body.data.token;
        const password = await signIn(server, 'staff', 'Staff#2026');
        for (const token of [one, two, password]) expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);

        const forged = await postForm(second, `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`, { logout_token: 'forged' });
        expect(forged.status).toBe(400);
        expect(forged.body.code).toBe(codes.ssoTokenRejected);

        const bySid = await postForm(second, `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`, { logout_token: 'sid:sid-bc-1:jti-bc-1' });
        expect(bySid.body).toMatchObject({ code: 0, data: { ended: 1 } });
        expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: one })).status).toBe(401);
        expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: two })).status).toBe(200);
        const bySubject = await postForm(server, `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`, { logout_token: 'sub:sub-staff:jti-bc-2' });
        expect(bySubject.body.code).toBe(0);
        expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token: two })).status).toBe(401);
        // the password session is no provider's
        expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token: password })).status).toBe(200);
        const log = await logRows('sso-logout');
        expect(log.map((row) => `${row.result} ${row.detail}`)).toContain(`failure provider ${oidcProvider.id}: ssoTokenRejected`);
      } finally {
        await second.close();
      }
    });

    it('a logout token acts once: its replay answers 400, is logged once and ends nothing new; one without jti is refused', async () => {
      const backchannel = `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`;
      oidc.people.set('staff-code-r', { account: 'staff', subject: 'sub-staff', providerSession: 'sid-r', idToken: 'id.token.r' });
      const first = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-r'))).body.data.token;
      expect((await postForm(server, backchannel, { logout_token: 'sid:sid-r:jti-replayed' })).body).toMatchObject({ code: 0, data: { ended: 1 } });
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: first })).status).toBe(401);

      // the same provider session signs in again; the captured token posted again ends nothing
      const again = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-r'))).body.data.token;
      const replay = await postForm(server, backchannel, { logout_token: 'sid:sid-r:jti-replayed' });
      expect(replay.status).toBe(400);
      expect(replay.body.code).toBe(codes.ssoTokenRejected);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: again })).status).toBe(200);
      const withoutJti = await postForm(server, backchannel, { logout_token: 'sid:sid-r' });
      expect(withoutJti.status).toBe(400);
      expect(withoutJti.body.code).toBe(codes.ssoTokenRejected);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: again })).status).toBe(200);

      const details = (await logRows('sso-logout')).map((row) => `${row.result} ${row.detail}`);
      expect(details.filter((d) => d === `failure provider ${oidcProvider.id}: ssoTokenRejected (replayed logout token)`)).toHaveLength(1);
      expect(details.filter((d) => d === `failure provider ${oidcProvider.id}: ssoTokenRejected (no jti)`)).toHaveLength(1);
      // the jti is kept only hashed, for this provider
      const kept = await server.handle.db.selectFrom('sso_logout_tokens').selectAll().where('provider_id', '=', oidcProvider.id).execute();
      expect(kept.map((row) => row.jti_hash)).toContain(sha256('jti-replayed'));
      expect(JSON.stringify(kept)).not.toContain('jti-replayed');
    });

    it('the same logout token reaching two nodes at once acts once', async () => {
      const second = await attachServer(server, {}, { ssoClients: { oidc, cas } });
      try {
        const backchannel = `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`;
        for (let round = 0; round < 5; round += 1) {
          oidc.people.set(`staff-code-c${round}`, { account: 'staff', subject: 'sub-staff', providerSession: `sid-c${round}`, idToken: 'id.token.c' });
          const token = (await exchange(await roundTrip(oidcProvider.id, `staff-code-c${round}`))).body.data.token;
          const form = { logout_token: `sid:sid-c${round}:jti-c${round}` };
          const replies = await Promise.all([postForm(server, backchannel, form), postForm(second, backchannel, form)]);
          expect(replies.map((reply) => reply.status).sort()).toEqual([200, 400]);
          expect(replies.map((reply) => (reply.body.data as { ended?: number } | null)?.ended ?? 0).reduce((a, b) => a + b)).toBe(1);
          expect((await call(second, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
        }
      } finally {
        await second.close();
      }
    });

    it('a form that sends a field twice is refused before any provider reads it', async () => {
      const res = await fetch(`${server.url}${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', language: 'en-US' },
        body: 'logout_token=sid:a&logout_token=sid:b',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: number }).code).toBe(codes.badRequest);
    });

    it('CAS single logout posted to the service ends the sessions of that ticket', async () => {
      const token = (await exchange(await roundTrip(casProvider.id, 'ST-1'))).body.data.token;
      const reply = await postForm(server, apiPaths.ssoCasCallback, { logoutRequest: 'sid:ST-1' });
      expect(reply.body.code).toBe(0);
      expect((reply.body.data as { ended: number }).ended).toBeGreaterThanOrEqual(1);
      expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(401);
    });
  });

  it('pruning removes the links of ended sessions, expired round trips, tickets and logout tokens, and keeps the live ones', async () => {
    const db = server.handle.db;
    const backchannel = `${apiPaths.ssoBackchannelLogout}?providerId=${oidcProvider.id}`;
    const prune = () => createServices(server.handle, server.config, { now: server.clock.now }).sessions.pruneEnded();
    const hasLink = async (token: string) => (await db.selectFrom('sso_sessions').select('token_hash').where('token_hash', '=', sha256(token)).executeTakeFirst()) !== undefined;
    const states = async () => new Set((await db.selectFrom('sso_round_trips').select('state_hash').execute()).map((row) => row.state_hash));
    const tickets = async () => new Set((await db.selectFrom('sso_login_tickets').select('ticket_hash').execute()).map((row) => row.ticket_hash));
    const jtis = async () => new Set((await db.selectFrom('sso_logout_tokens').select('jti_hash').where('provider_id', '=', oidcProvider.id).execute()).map((row) => row.jti_hash));
    /** Start only: a round trip nobody came back from; its state hash. */
    const startOnly = async () => {
      const atProvider = locationOf(await get(server, `${apiPaths.ssoStart}?providerId=${oidcProvider.id}&tenantCode=1001`));
      return sha256(atProvider.searchParams.get('state') ?? '');
    };
    oidc.people.set('staff-code-p', { account: 'staff', subject: 'sub-staff', providerSession: 'sid-p', idToken: 'id.token.p' });

    const quit = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-p'))).body.data.token;
    expect((await call(server, 'POST', apiPaths.logout, {}, { token: quit })).body.code).toBe(0);
    const goneByHand = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-p'))).body.data.token;
    await db.deleteFrom('sessions').where('token_hash', '=', sha256(goneByHand)).execute();
    const expiring = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-p'))).body.data.token;
    const oldTicket = sha256((await roundTrip(oidcProvider.id, 'staff-code-p')).searchParams.get('token') ?? '');
    const oldState = await startOnly();
    expect((await postForm(server, backchannel, { logout_token: 'sub:sub-nobody:jti-old' })).status).toBe(200);
    for (const token of [quit, goneByHand, expiring]) expect(await hasLink(token)).toBe(true);

    // past the idle time of a session and an hour past the life of a round trip and a ticket
    server.clock.advance(server.config.sessionIdleMinutes * 60_000 + 2 * 3600_000);
    admin = await signIn(server, 'sysadmin', 'Sysadmin#2026');
    const live = (await exchange(await roundTrip(oidcProvider.id, 'staff-code-p'))).body.data.token;
    const liveTicket = sha256((await roundTrip(oidcProvider.id, 'staff-code-p')).searchParams.get('token') ?? '');
    const liveState = await startOnly();
    expect((await postForm(server, backchannel, { logout_token: 'sub:sub-nobody:jti-live' })).status).toBe(200);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token: expiring })).status).toBe(401);

    await prune();
    for (const token of [quit, goneByHand, expiring]) expect(await hasLink(token)).toBe(false);
    expect(await hasLink(live)).toBe(true);
    expect([(await tickets()).has(oldTicket), (await tickets()).has(liveTicket)]).toEqual([false, true]);
    expect([(await states()).has(oldState), (await states()).has(liveState)]).toEqual([false, true]);
    expect([(await jtis()).has(sha256('jti-old')), (await jtis()).has(sha256('jti-live'))]).toEqual([false, true]);
    // the live session still knows its provider: Quit answers the provider's logout
    const out = await call<{ providerLogoutUrl: string } | null>(server, 'POST', apiPaths.logout, {}, { token: live });
    expect(out.body.data?.providerLogoutUrl).toContain('id_token_hint=id.token.p');
  });

  it('removing a provider takes its button away; the sessions it opened stay until they end', async () => {
    const token = (await exchange(await roundTrip(oidcProvider.id, 'staff-code'))).body.data.token;
    expect((await call(server, 'POST', apiPaths.identityProviderDelete, { id: oidcProvider.id }, { token: admin })).body.code).toBe(0);
    const settings = await call<TenantSettings>(server, 'GET', apiPaths.tenantSettings, undefined, { headers: { tenantcode: '1001' } });
    expect(settings.body.data.identityProviders.map((p) => p.id)).toEqual([casProvider.id]);
    expect((await call(server, 'GET', apiPaths.userDetail, undefined, { token })).status).toBe(200);
    expect((await call(server, 'POST', apiPaths.identityProviderDelete, { id: oidcProvider.id }, { token: admin })).body.code).toBe(codes.ssoProviderUnknown);
  });
});

import http from 'node:http';
import net from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, importJWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, ssoClockSkewSeconds } from '@campus/contracts';
import type { BusinessCode, OidcProviderSettings } from '@campus/contracts';
import { AppError } from '../../src/http/envelope.ts';
import { OidcClient } from '../../src/modules/sso/oidc-client.ts';
import { providerFetch } from '../../src/modules/sso/provider-fetch.ts';
import { ProviderNetworkPolicy } from '../../src/lib/outbound-addresses.ts';
import type { ProviderForProtocol, RoundTrip } from '../../src/modules/sso/protocol.ts';
import { freePort } from '../support/free-port.ts';
import { startOidcTestProvider } from '../support/oidc-test-provider.ts';
import type { OidcTestProvider } from '../support/oidc-test-provider.ts';

// The OIDC protocol client (issue 49) against a real OpenID Provider (oidc-provider 9 on loopback, its own login
// page driven with fetch): what the sign-in flow gets from it, and every refusal as its business code.

/** The test provider runs on loopback: opened to it, as SSO_PROVIDER_NETWORKS=127.0.0.0/8,::1 would. */
const loopbackFetch = providerFetch({ policy: new ProviderNetworkPolicy(['127.0.0.0/8', '::1']) });

let rp: http.Server;
let rpOrigin: string;
let redirectUri: string;
/** The logout_token values the provider posted to this relying party's back-channel logout URI. */
const logoutTokens: string[] = [];
let op: OidcTestProvider;

const users = [
  { username: 'zhang', email: 'zhang@campus.test', name: 'Zhang San' },
  { username: 'li' }, // no email: a claim the provider does not send
  { username: 'wang', password: 'wang-secret-1' },
];

beforeAll(async () => {
  const port = await freePort();
  rpOrigin = `http://127.0.0.1:${port}`;
  redirectUri = `${rpOrigin}/api/sso/oidc/callback`;
  rp = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/sso/oidc/backchannel-logout') {
        const token = new URLSearchParams(Buffer.concat(chunks).toString()).get('logout_token');
        if (token) logoutTokens.push(token);
        res.writeHead(200).end();
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => rp.listen(port, '127.0.0.1', resolve));
  op = await startOidcTestProvider({ redirectUris: [redirectUri], backchannelLogoutUri: `${rpOrigin}/api/sso/oidc/backchannel-logout`, users });
});

afterAll(async () => {
  await op?.close();
  await new Promise<void>((resolve) => rp.close(() => resolve()));
});

function providerOf(at: OidcTestProvider, settings: Partial<OidcProviderSettings> = {}, id = 'idp-1'): ProviderForProtocol {
  return {
    id,
    tenantCode: 'campus',
    kind: 'oidc',
    settings: { discoveryUrl: at.discoveryUrl, clientId: at.clientId, scopes: 'profile email', accountClaim: 'preferred_username', ...settings },
    clientSecret: at.clientSecret,
  };
}

function newRoundTrip(): RoundTrip {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier(), redirectUri };
}

async function refusal(promise: Promise<unknown>): Promise<BusinessCode> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal, got an answer');
}

/** Start → the provider's login page → the callback URL, as a browser would reach it. */
async function toCallback(client: OidcClient, provider: ProviderForProtocol, username = 'zhang', at: OidcTestProvider = op) {
  const roundTrip = newRoundTrip();
  const authorizationUrl = await client.authorizationUrl(provider, roundTrip);
  const { callbackUrl, browser } = await at.signIn(authorizationUrl, username);
  return { roundTrip, authorizationUrl, callbackUrl, browser };
}

/** A fetch that hands the token endpoint's answer to `change` (a forged ID token in it). */
function tokenAnswerChanged(change: (body: Record<string, unknown>) => Promise<void> | void): typeof fetch {
  return async (input, init) => {
    const response = await loopbackFetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (!url.endsWith('/token')) return response;
    const body = (await response.json()) as Record<string, unknown>;
    await change(body);
    return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  };
}

describe('sign-in through the provider', () => {
  it('asks for a code with PKCE (S256), state, nonce and openid, and gives the configured claim of the ID token', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, authorizationUrl, callbackUrl } = await toCallback(client, provider);
    const asked = new URL(authorizationUrl);
    expect(asked.origin).toBe(op.issuer);
    expect(asked.searchParams.get('response_type')).toBe('code');
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('code_challenge')).toBe(await oidc.calculatePKCECodeChallenge(roundTrip.codeVerifier));
    expect(asked.searchParams.get('state')).toBe(roundTrip.state);
    expect(asked.searchParams.get('nonce')).toBe(roundTrip.nonce);
    expect(asked.searchParams.get('scope')!.split(' ')).toEqual(['openid', 'profile', 'email']);
    expect(asked.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(callbackUrl.href.startsWith(`${redirectUri}?`)).toBe(true);

    const signedIn = await client.finish(provider, roundTrip, callbackUrl);
    expect(signedIn.account).toBe('zhang');
    expect(signedIn.subject).toBe('sub-zhang');
    expect(signedIn.providerSession).toMatch(/\S+/);
    expect(decodeJwt(signedIn.idToken!)).toMatchObject({ iss: op.issuer, aud: op.clientId, sub: 'sub-zhang', nonce: roundTrip.nonce, sid: signedIn.providerSession });
  });

  it('reads another claim (email) and asks for openid even when the settings leave it out', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op, { accountClaim: 'email', scopes: 'email' });
    const { roundTrip, authorizationUrl, callbackUrl } = await toCallback(client, provider);
    expect(new URL(authorizationUrl).searchParams.get('scope')).toBe('openid email');
    expect((await client.finish(provider, roundTrip, callbackUrl)).account).toBe('zhang@campus.test');
  });

  it('refuses a sign-in whose answer lacks the claim that names the account', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op, { accountClaim: 'email' });
    const { roundTrip, callbackUrl } = await toCallback(client, provider, 'li');
    expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoAccountClaimMissing);
  });

  it('signs in a public client (no secret, PKCE alone) and a client_secret_post client', async () => {
    for (const options of [{ publicClient: true }, { tokenEndpointAuthMethod: 'client_secret_post' as const }]) {
      const other = await startOidcTestProvider({ redirectUris: [redirectUri], users, ...options });
      try {
        const client = new OidcClient({ fetch: loopbackFetch });
        const provider = providerOf(other);
        const { roundTrip, callbackUrl } = await toCallback(client, provider, 'zhang', other);
        expect((await client.finish(provider, roundTrip, callbackUrl)).account).toBe('zhang');
      } finally {
        await other.close();
      }
    }
  });

  it('reads the claim at userinfo when the provider keeps it out of the ID token', async () => {
    const conforming = await startOidcTestProvider({ redirectUris: [redirectUri], users, claimsAtUserinfoOnly: true });
    try {
      const client = new OidcClient({ fetch: loopbackFetch });
      const provider = providerOf(conforming, { accountClaim: 'email' });
      const { roundTrip, callbackUrl } = await toCallback(client, provider, 'zhang', conforming);
      const signedIn = await client.finish(provider, roundTrip, callbackUrl);
      expect(decodeJwt(signedIn.idToken!).email).toBeUndefined();
      expect(signedIn.account).toBe('zhang@campus.test');
    } finally {
      await conforming.close();
    }
  });

  it("the provider's login page asks for the password of a user who has one", async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const roundTrip = newRoundTrip();
    const authorizationUrl = await client.authorizationUrl(provider, roundTrip);
    await expect(op.signIn(authorizationUrl, 'wang', { password: 'wrong' })).rejects.toThrow(/refused the sign-in/);
    await expect(op.signIn(authorizationUrl, 'nobody')).rejects.toThrow(/refused the sign-in/);
    const { callbackUrl } = await op.signIn(authorizationUrl, 'wang', { password: 'wang-secret-1' });
    expect((await client.finish(provider, roundTrip, callbackUrl)).account).toBe('wang');
  });

  it('signs in again without the form while the provider session lasts (the same browser)', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const first = await toCallback(client, provider);
    const firstSignIn = await client.finish(provider, first.roundTrip, first.callbackUrl);
    const roundTrip = newRoundTrip();
    // a user name that does not exist: the form is not shown, so it is never used
    const { callbackUrl } = await op.signIn(await client.authorizationUrl(provider, roundTrip), 'nobody', { browser: first.browser });
    const second = await client.finish(provider, roundTrip, callbackUrl);
    expect(second).toMatchObject({ account: 'zhang', providerSession: firstSignIn.providerSession });
  });

  it('refuses a wrong client secret as a setting to correct', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = { ...providerOf(op), clientSecret: 'not-the-secret' };
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoProviderConfigInvalid);
  });

  it('reaches no provider on loopback unless its network is opened: refused by policy, and the test says so', async () => {
    const closed = new OidcClient();
    expect(await refusal(closed.authorizationUrl(providerOf(op), newRoundTrip()))).toBe(codes.ssoProviderAddressRefused);
    const result = await closed.test(providerOf(op), 'en-US');
    expect(result.ok).toBe(false);
    expect(result.steps[0]!.detail).toContain('refused by policy');
    expect(result.steps[0]!.detail).not.toContain('127.0.0.1');
  });
});

describe('the round trip is checked', () => {
  it('refuses a changed state, and an answer without a state', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    const changed = new URL(callbackUrl);
    changed.searchParams.set('state', oidc.randomState());
    expect(await refusal(client.finish(provider, roundTrip, changed))).toBe(codes.ssoStateInvalid);
    changed.searchParams.delete('state');
    expect(await refusal(client.finish(provider, roundTrip, changed))).toBe(codes.ssoStateInvalid);
    // the code was not spent by the refusals: the true answer still signs in
    expect((await client.finish(provider, roundTrip, callbackUrl)).account).toBe('zhang');
  });

  it('refuses an ID token for another nonce', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect(await refusal(client.finish(provider, { ...roundTrip, nonce: oidc.randomNonce() }, callbackUrl))).toBe(codes.ssoTokenRejected);
  });

  it('refuses a code with another PKCE verifier (the provider refuses the exchange)', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect(await refusal(client.finish(provider, { ...roundTrip, codeVerifier: oidc.randomPKCECodeVerifier() }, callbackUrl))).toBe(codes.ssoTokenRejected);
  });

  it('refuses a code used twice', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect((await client.finish(provider, roundTrip, callbackUrl)).account).toBe('zhang');
    expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoTokenRejected);
  });

  it('refuses an answer that names another issuer (RFC 9207 iss), and tells a declined sign-in apart', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect(callbackUrl.searchParams.get('iss')).toBe(op.issuer);
    const otherIssuer = new URL(callbackUrl);
    otherIssuer.searchParams.set('iss', 'http://127.0.0.1:1/elsewhere');
    expect(await refusal(client.finish(provider, roundTrip, otherIssuer))).toBe(codes.ssoTokenRejected);
    const declined = new URL(redirectUri);
    declined.search = new URLSearchParams({ error: 'access_denied', state: roundTrip.state, iss: op.issuer }).toString();
    expect(await refusal(client.finish(provider, roundTrip, declined))).toBe(codes.ssoSignInDeclined);
  });
});

describe("the ID token is checked against the provider's keys, issuer, audience and clock", () => {
  it('refuses an ID token signed by a key that is not the provider’s (its kid, or a kid of its own)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    for (const kid of [op.signingKid(), 'forged-key']) {
      const forge = tokenAnswerChanged(async (body) => {
        const claims = decodeJwt(String(body.id_token));
        body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
      });
      const client = new OidcClient({ fetch: forge });
      const provider = providerOf(op);
      const { roundTrip, callbackUrl } = await toCallback(client, provider);
      expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoTokenRejected);
    }
  });

  it('signs in after the provider rotated its keys, also when it dropped the old key', async () => {
    let offset = 0;
    const client = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() + offset });
    const provider = providerOf(op);
    const first = await toCallback(client, provider);
    const before = await client.finish(provider, first.roundTrip, first.callbackUrl);
    const oldKid = decodeProtectedHeader(before.idToken!).kid;
    for (const dropOld of [false, true]) {
      const newKid = await op.rotateKeys({ dropOld });
      offset += 11_000; // past the cooldown between two reads of the key set
      const again = await toCallback(client, provider);
      const after = await client.finish(provider, again.roundTrip, again.callbackUrl);
      expect(after.account).toBe('zhang');
      expect(decodeProtectedHeader(after.idToken!).kid).toBe(newKid);
      expect(newKid).not.toBe(oldKid);
    }
  });

  it('refuses an ID token for another audience, signed by the provider', async () => {
    // a true ID token of the same provider, issued to its other client
    const otherProvider = { ...providerOf(op, { clientId: op.otherClient.clientId }), clientSecret: op.otherClient.clientSecret };
    const otherClient = new OidcClient({ fetch: loopbackFetch });
    const theirs = await toCallback(otherClient, otherProvider);
    const foreign = (await otherClient.finish(otherProvider, theirs.roundTrip, theirs.callbackUrl)).idToken!;
    const client = new OidcClient({ fetch: tokenAnswerChanged((body) => void (body.id_token = foreign)) });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl } = await toCallback(client, provider);
    expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoTokenRejected);
  });

  it('refuses an ID token of another issuer, signed with the same key for the same client id', async () => {
    const twin = await startOidcTestProvider({ redirectUris: [redirectUri], users, clientId: op.clientId, signingKeys: op.signingKeys() });
    try {
      const twinProvider = { ...providerOf(twin), id: 'twin' };
      const twinClient = new OidcClient({ fetch: loopbackFetch });
      const theirs = await toCallback(twinClient, twinProvider, 'zhang', twin);
      const foreign = (await twinClient.finish(twinProvider, theirs.roundTrip, theirs.callbackUrl)).idToken!;
      expect(decodeJwt(foreign)).toMatchObject({ iss: twin.issuer, aud: op.clientId });
      const client = new OidcClient({
        fetch: tokenAnswerChanged((body) => {
          // the same nonce, so that the issuer is the only difference
          const mine = decodeJwt(String(body.id_token));
          expect(decodeJwt(foreign).iss).not.toBe(mine.iss);
          body.id_token = foreign;
        }),
      });
      const provider = providerOf(op);
      const { roundTrip, callbackUrl } = await toCallback(client, provider);
      expect(await refusal(client.finish(provider, { ...roundTrip, nonce: String(decodeJwt(foreign).nonce) }, callbackUrl))).toBe(codes.ssoTokenRejected);
    } finally {
      await twin.close();
    }
  });

  it('refuses a discovery document that names another issuer than its address', async () => {
    const client = new OidcClient({
      fetch: async (input, init) => {
        const response = await loopbackFetch(input, init);
        if (!String(input).endsWith('/.well-known/openid-configuration')) return response;
        const doc = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...doc, issuer: `${op.issuer}/other` });
      },
    });
    expect(await refusal(client.authorizationUrl(providerOf(op), newRoundTrip()))).toBe(codes.ssoProviderConfigInvalid);
  });

  it(`accepts a provider clock within ${ssoClockSkewSeconds} s and refuses tokens outside it`, async () => {
    const provider = providerOf(op);
    const within = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() - (ssoClockSkewSeconds - 20) * 1000 });
    const ok = await toCallback(within, provider);
    expect((await within.finish(provider, ok.roundTrip, ok.callbackUrl)).account).toBe('zhang');
    // the server's clock far behind: the token is issued in its future
    const behind = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() - (ssoClockSkewSeconds + 60) * 1000 });
    const early = await toCallback(behind, provider);
    expect(await refusal(behind.finish(provider, early.roundTrip, early.callbackUrl))).toBe(codes.ssoTokenRejected);
    // the server's clock past the token's expiry (oidc-provider: one hour) and the bound
    const ahead = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() + (3600 + ssoClockSkewSeconds + 60) * 1000 });
    const late = await toCallback(ahead, provider);
    expect(await refusal(ahead.finish(provider, late.roundTrip, late.callbackUrl))).toBe(codes.ssoTokenRejected);
  });
});

describe('a provider that does not answer', () => {
  it('is ssoProviderUnreachable: connection refused, before and after discovery', async () => {
    const down = await startOidcTestProvider({ redirectUris: [redirectUri], users });
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(down);
    try {
      const { roundTrip, callbackUrl } = await toCallback(client, provider, 'zhang', down);
      await down.stop();
      // discovery is cached: the token endpoint is what does not answer
      expect(await refusal(client.finish(provider, roundTrip, callbackUrl))).toBe(codes.ssoProviderUnreachable);
      expect(await refusal(new OidcClient({ fetch: loopbackFetch }).authorizationUrl(provider, newRoundTrip()))).toBe(codes.ssoProviderUnreachable);
      // up again: the next sign-in works
      await down.resume();
      const again = await toCallback(client, provider, 'zhang', down);
      expect((await client.finish(provider, again.roundTrip, again.callbackUrl)).account).toBe('zhang');
    } finally {
      await down.close();
    }
  });

  it('is ssoProviderUnreachable when it accepts the connection but never answers (the timeout)', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
    try {
      const client = new OidcClient({ fetch: loopbackFetch, timeoutMs: 300 });
      const provider = providerOf(op, { discoveryUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration` });
      const started = Date.now();
      expect(await refusal(client.authorizationUrl(provider, newRoundTrip()))).toBe(codes.ssoProviderUnreachable);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('the discovery document is cached per provider', () => {
  it('is read once for several sign-ins, again after its time or when the settings name another provider', async () => {
    const reads: string[] = [];
    let offset = 0;
    const client = new OidcClient({
      now: () => Date.now() + offset,
      fetch: async (input, init) => {
        if (String(input).endsWith('/.well-known/openid-configuration')) reads.push(String(input));
        return loopbackFetch(input, init);
      },
    });
    const provider = providerOf(op);
    await client.authorizationUrl(provider, newRoundTrip());
    await client.authorizationUrl(provider, newRoundTrip());
    expect(reads).toEqual([op.discoveryUrl]);
    offset += 6 * 60_000;
    await client.authorizationUrl(provider, newRoundTrip());
    expect(reads).toEqual([op.discoveryUrl, op.discoveryUrl]);

    const other = await startOidcTestProvider({ redirectUris: [redirectUri], users });
    try {
      // the same provider id with changed settings: the new discovery URL, not the old document
      const changed = providerOf(other);
      const url = new URL(await client.authorizationUrl(changed, newRoundTrip()));
      expect(url.origin).toBe(other.issuer);
      expect(reads.at(-1)).toBe(other.discoveryUrl);
    } finally {
      await other.close();
    }
  });

  it('refuses settings that cannot be a provider (http off loopback, no claim)', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    expect(await refusal(client.authorizationUrl(providerOf(op, { discoveryUrl: 'http://idp.example.edu/.well-known/openid-configuration' }), newRoundTrip()))).toBe(codes.ssoProviderConfigInvalid);
    expect(await refusal(client.authorizationUrl(providerOf(op, { accountClaim: ' ' }), newRoundTrip()))).toBe(codes.ssoProviderConfigInvalid);
  });
});

describe('logout', () => {
  it("logoutUrl is the provider's end_session_endpoint with id_token_hint and post_logout_redirect_uri, which the provider accepts", async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl, browser } = await toCallback(client, provider);
    const { idToken } = await client.finish(provider, roundTrip, callbackUrl);
    const back = `${rpOrigin}/login`;
    const url = new URL((await client.logoutUrl(provider, { idToken }, back))!);
    expect(`${url.origin}${url.pathname}`).toBe(`${op.issuer}/session/end`);
    expect(url.searchParams.get('id_token_hint')).toBe(idToken);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(back);
    expect(url.searchParams.get('client_id')).toBe(op.clientId);
    // the provider answers its logout confirmation for it (not an error page)
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const page = await fetch(url, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('logout');
    const noHint = new URL((await client.logoutUrl(provider, { idToken: null }, back))!);
    expect(noHint.searchParams.has('id_token_hint')).toBe(false);
  });

  it('logoutUrl is null when the provider has no end_session_endpoint', async () => {
    const client = new OidcClient({
      fetch: async (input, init) => {
        const response = await loopbackFetch(input, init);
        if (!String(input).endsWith('/.well-known/openid-configuration')) return response;
        const doc = (await response.json()) as Record<string, unknown>;
        delete doc.end_session_endpoint;
        return Response.json(doc);
      },
    });
    expect(await client.logoutUrl(providerOf(op), { idToken: null }, `${rpOrigin}/login`)).toBeNull();
  });

  it("reads the provider's back-channel logout token: the session it names", async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl, browser } = await toCallback(client, provider);
    const signedIn = await client.finish(provider, roundTrip, callbackUrl);
    logoutTokens.length = 0;
    await op.logout(browser);
    expect(logoutTokens).toHaveLength(1);
    const { jti, iat, exp } = decodeJwt(logoutTokens[0]!);
    // remembered while the token could still be accepted: its exp or its iat's largest age (420 s), plus the skew
    const lastSecond = Math.min(exp ?? Infinity, iat! + ssoClockSkewSeconds + 300) + ssoClockSkewSeconds + 1;
    expect(await client.readLogout(provider, { logout_token: logoutTokens[0]! })).toEqual({ providerSession: signedIn.providerSession, once: { id: jti, acceptableUntil: lastSecond * 1000 } });
  });

  it("refuses a logout token without jti, signed with the provider's own key; without exp it is remembered by its iat", async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl, browser } = await toCallback(client, provider);
    await client.finish(provider, roundTrip, callbackUrl);
    logoutTokens.length = 0;
    await op.logout(browser);
    const { jti, exp, ...genuine } = decodeJwt(logoutTokens[0]!);
    expect(jti).toBeTruthy();
    const kid = op.signingKid();
    const key = await importJWK(op.signingKeys().find((k) => k.kid === kid)!, 'RS256');
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'logout+jwt' }).sign(key);
    expect(await refusal(client.readLogout(provider, { logout_token: await sign({ ...genuine, exp }) }))).toBe(codes.ssoTokenRejected);
    expect(await refusal(client.readLogout(provider, { logout_token: await sign({ ...genuine, exp, jti: '' }) }))).toBe(codes.ssoTokenRejected);
    expect(await refusal(client.readLogout(provider, { logout_token: await sign({ ...genuine, exp, jti: 42 }) }))).toBe(codes.ssoTokenRejected);
    // the same claims with the jti verify: what refused them was the jti alone
    expect(await client.readLogout(provider, { logout_token: await sign({ ...genuine, exp, jti }) })).toHaveProperty('once.id', jti);
    const withoutExp = await client.readLogout(provider, { logout_token: await sign({ ...genuine, jti }) });
    expect(withoutExp.once).toEqual({ id: jti, acceptableUntil: (genuine.iat! + ssoClockSkewSeconds + 300 + ssoClockSkewSeconds + 1) * 1000 });
  });

  it('refuses a forged logout token, an ID token posted as one, and a form without one', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const provider = providerOf(op);
    const { roundTrip, callbackUrl, browser } = await toCallback(client, provider);
    const signedIn = await client.finish(provider, roundTrip, callbackUrl);
    logoutTokens.length = 0;
    await op.logout(browser);
    const genuine = decodeJwt(logoutTokens[0]!);
    const { privateKey } = await generateKeyPair('RS256');
    for (const kid of [op.signingKid(), 'forged-key']) {
      const forged = await new SignJWT(genuine).setProtectedHeader({ alg: 'RS256', kid, typ: 'logout+jwt' }).sign(privateKey);
      expect(await refusal(client.readLogout(provider, { logout_token: forged }))).toBe(codes.ssoTokenRejected);
    }
    // signed with the client secret (HS256) instead of the provider's key
    const withSecret = await new SignJWT(genuine).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(op.clientSecret!));
    expect(await refusal(client.readLogout(provider, { logout_token: withSecret }))).toBe(codes.ssoTokenRejected);
    // signed by the provider, for this client, but not a logout token (no events claim, a nonce)
    expect(await refusal(client.readLogout(provider, { logout_token: signedIn.idToken! }))).toBe(codes.ssoTokenRejected);
    expect(await refusal(client.readLogout(provider, {}))).toBe(codes.ssoResponseInvalid);
    expect(await refusal(client.readLogout(provider, { logout_token: 'not a token' }))).toBe(codes.ssoResponseInvalid);
  });

  it('verifies a logout token signed by a key the provider rotated in after the sign-in', async () => {
    let offset = 0;
    const rotating = await startOidcTestProvider({ redirectUris: [redirectUri], backchannelLogoutUri: `${rpOrigin}/api/sso/oidc/backchannel-logout`, users });
    try {
      const client = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() + offset });
      const provider = { ...providerOf(rotating), id: 'rotating' };
      const { roundTrip, callbackUrl, browser } = await toCallback(client, provider, 'zhang', rotating);
      const signedIn = await client.finish(provider, roundTrip, callbackUrl);
      const newKid = await rotating.rotateKeys({ dropOld: true });
      offset += 11_000;
      logoutTokens.length = 0;
      await rotating.logout(browser);
      expect(decodeProtectedHeader(logoutTokens[0]!).kid).toBe(newKid);
      expect(await client.readLogout(provider, { logout_token: logoutTokens[0]! })).toMatchObject({ providerSession: signedIn.providerSession });
    } finally {
      await rotating.close();
    }
  });

  it('refuses a logout token for another client (audience)', async () => {
    const other = await startOidcTestProvider({ redirectUris: [redirectUri], backchannelLogoutUri: `${rpOrigin}/api/sso/oidc/backchannel-logout`, users, signingKeys: op.signingKeys() });
    try {
      const client = new OidcClient({ fetch: loopbackFetch });
      const otherProvider = { ...providerOf(other), id: 'other' };
      const { roundTrip, callbackUrl, browser } = await toCallback(client, otherProvider, 'zhang', other);
      await client.finish(otherProvider, roundTrip, callbackUrl);
      logoutTokens.length = 0;
      await other.logout(browser);
      expect(await client.readLogout(otherProvider, { logout_token: logoutTokens[0]! })).toHaveProperty('providerSession');
      // the same keys, but another issuer and audience than op's client expects
      expect(await refusal(client.readLogout(providerOf(op), { logout_token: logoutTokens[0]! }))).toBe(codes.ssoTokenRejected);
    } finally {
      await other.close();
    }
  });
});

describe('test connection', () => {
  it('reports discovery, keys and clock, each in the caller’s language', async () => {
    const client = new OidcClient({ fetch: loopbackFetch });
    const result = await client.test(providerOf(op), 'en-US');
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual([
      ['discovery', true],
      ['keys', true],
      ['clock', true],
    ]);
    expect(result.steps[0]!.detail).toContain(op.issuer);
    expect(result.steps[1]!.detail).toMatch(/^1 signing key/);
    expect(Math.abs(result.clockSkewSeconds!)).toBeLessThanOrEqual(2);
    const zh = await client.test(providerOf(op), 'zh-CN');
    expect(zh.steps[1]!.detail).toContain('签名密钥');
    const mo = await client.test(providerOf(op), 'zh-MO');
    expect(mo.steps[1]!.detail).toContain('簽署金鑰');
  });

  it("fails the clock step when the provider's clock is off by more than the bound", async () => {
    const client = new OidcClient({ fetch: loopbackFetch, now: () => Date.now() + 10 * 60_000 });
    const result = await client.test(providerOf(op), 'en-US');
    expect(result.ok).toBe(false);
    expect(result.steps.find((s) => s.step === 'clock')).toMatchObject({ ok: false });
    expect(result.clockSkewSeconds).toBeGreaterThanOrEqual(-602);
    expect(result.clockSkewSeconds).toBeLessThanOrEqual(-598);
  });

  it('says the provider did not answer, and does not try the later steps', async () => {
    const down = await startOidcTestProvider({ redirectUris: [redirectUri], users });
    await down.close();
    const result = await new OidcClient({ fetch: loopbackFetch }).test(providerOf(down), 'zh-CN');
    expect(result).toMatchObject({ ok: false, clockSkewSeconds: null });
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual([
      ['discovery', false],
      ['keys', false],
      ['clock', false],
    ]);
    expect(result.steps[0]!.detail).toContain('未在');
    expect(result.steps[1]!.detail).toBe('未尝试：上一步失败');
  });

  it('says what is wrong with a discovery URL it cannot use, or a document that is not one', async () => {
    const offLoopback = await new OidcClient({ fetch: loopbackFetch }).test(providerOf(op, { discoveryUrl: 'http://idp.example.edu/.well-known/openid-configuration' }), 'en-US');
    expect(offLoopback.ok).toBe(false);
    expect(offLoopback.steps[0]).toMatchObject({ step: 'discovery', ok: false });
    expect(offLoopback.steps[0]!.detail).toContain('discoveryUrl');
    // the provider's address, but a path where no discovery document is
    const wrongPath = await new OidcClient({ fetch: loopbackFetch }).test(providerOf(op, { discoveryUrl: `${op.issuer}/nothing/.well-known/openid-configuration` }), 'zh-MO');
    expect(wrongPath.steps[0]).toMatchObject({ step: 'discovery', ok: false });
    expect(wrongPath.steps[0]!.detail).toContain('探索文件');
  });
});

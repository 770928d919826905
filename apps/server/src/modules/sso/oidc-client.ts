import * as client from 'openid-client';
import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { codes, ssoClockSkewSeconds } from '@campus/contracts';
import type { IdentityProviderTestResult, LanguageCode, Localised, OidcProviderSettings } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import type { ProtocolClient, ProviderForProtocol, ProviderLogout, RoundTrip, SignedInAtProvider } from './protocol.ts';
import { addressRefusedError, isAddressRefused, providerFetch } from './provider-fetch.ts';
import { ProviderNetworkPolicy } from '../../lib/outbound-addresses.ts';

// The OpenID Connect side of external sign-in (issue 49, docs/sso.md): openid-client 6 (an OpenID-certified relying
// party) does the protocol: authorization code with PKCE (S256), state, nonce, the `iss` of the authorization
// response, the ID token's signature against the provider's keys, its issuer, audience and times within
// ssoClockSkewSeconds. This file adds what a campus server needs around it: one timeout for every call to the
// provider, the discovery document cached per provider (and dropped when its settings change), the provider's keys
// re-read when a token names a key they lack (rotation), the back-channel logout_token, and "test connection".
//
// What it refuses, as AppError:
//   ssoProviderConfigInvalid (400, {field}) settings it cannot use: discoveryUrl not https (http only on loopback),
//                           a discovery document that is not one or names another issuer; clientSecret when the
//                           token endpoint refuses this server as its client (invalid_client)
//   ssoProviderUnreachable (502)  a call refused, reset, past the timeout (5 s) or answered 5xx
//   ssoProviderAddressRefused (400, {field, setting}) a call to an address the operator's policy refuses
//                                 (provider-fetch.ts; the flow shows it to a browser as ssoProviderUnreachable)
//   ssoStateInvalid (400)         the callback's state is not the round trip's (or missing)
//   ssoSignInDeclined (401)       the provider sent the user back with an error (access_denied, login_required, ...)
//   ssoTokenRejected (401)        the code refused by the token endpoint (used twice, expired, other PKCE verifier),
//                                 the ID token's signature, iss, aud, nonce, exp or iat, the response's iss
//   ssoAccountClaimMissing (401)  neither the ID token nor userinfo has settings.accountClaim
//   readLogout: ssoResponseInvalid (400) no logout_token; ssoTokenRejected (400) one that does not verify or lacks
//                                 its jti (Back-Channel Logout 1.0, 2.8: the relying party answers 400 to a refused
//                                 one); the flow refuses a jti it already acted on the same way (sso-service.ts)

const backchannelLogoutEvent = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token older than this (by its iat, beyond the clock skew) is refused, whatever its exp says. */
const logoutTokenMaxAgeSeconds = ssoClockSkewSeconds + 300;
const wellKnown = '/.well-known/openid-configuration';

export interface OidcClientDeps {
  /** The server's clock in ms (tests hand one in); the provider's times are checked against it. */
  now?: () => number;
  /** Each call to the provider gives up after this long (ms) and counts as "did not answer". Default 5 s. */
  timeoutMs?: number;
  /**
   * The fetch used for the provider (services.ts: providerFetch with SSO_PROVIDER_NETWORKS; tests wrap it to play a
   * forged answer). Default: providerFetch with no network opened (public addresses only).
   */
  fetch?: typeof fetch;
  /** How long a provider's discovery document is reused (ms). Default 5 minutes. */
  discoveryTtlMs?: number;
  /**
   * A token naming a key the cached key set lacks makes the key set be read again, at most once in this long (ms,
   * by `now`): a provider's new key is found, and a stream of forged tokens cannot make this server hammer the
   * provider. Default 10 s.
   */
  keysRefetchCooldownMs?: number;
}

/** What is cached per provider: its discovery document as it was served, and its keys. */
interface Discovered {
  /** The settings the entry was made from: another value means another entry. */
  key: string;
  fetchedAt: number;
  document: string;
  keys: client.ExportedJWKSCache | undefined;
  /** When (by `now`) the keys were last read from the provider. */
  keysReadAt: number;
}

/** One operation's view of its calls to the provider. */
interface Call {
  /** A call did not answer (refused, reset, timed out) or answered 5xx. */
  unreachable: boolean;
  /** A call went to an address the operator's policy refuses (SSO_PROVIDER_NETWORKS). */
  refused: boolean;
  /** The Date headers the provider answered with, and when (by `now`) each answer came. */
  dates: { date: string; at: number }[];
}

type OidcProvider = Extract<ProviderForProtocol, { kind: 'oidc' }>;

const texts = {
  discoveryOk: {
    'en-US': 'The provider answered its discovery document at {url}: issuer {issuer}',
    'zh-CN': '身份提供方在 {url} 返回了发现文档：签发者 {issuer}',
    'zh-MO': '身份提供方在 {url} 傳回了探索文件：簽發者 {issuer}',
  },
  discoveryUnreachable: {
    'en-US': 'The provider did not answer at {url} within {seconds} s',
    'zh-CN': '身份提供方在 {seconds} 秒内未在 {url} 应答',
    'zh-MO': '身份提供方在 {seconds} 秒內未在 {url} 應答',
  },
  discoveryInvalid: {
    'en-US': 'The answer at {url} is not a valid OpenID Connect discovery document for this address: {reason}',
    'zh-CN': '{url} 的应答不是此地址有效的 OpenID Connect 发现文档：{reason}',
    'zh-MO': '{url} 的應答不是此地址有效的 OpenID Connect 探索文件：{reason}',
  },
  keysOk: {
    'en-US': '{count} signing key(s) loaded from {url}',
    'zh-CN': '已从 {url} 加载 {count} 个签名密钥',
    'zh-MO': '已從 {url} 載入 {count} 個簽署金鑰',
  },
  keysNone: {
    'en-US': 'The key set at {url} has no key for signatures',
    'zh-CN': '{url} 的密钥集中没有签名密钥',
    'zh-MO': '{url} 的金鑰集中沒有簽署金鑰',
  },
  keysFailed: {
    'en-US': 'The key set could not be loaded from {url}: {reason}',
    'zh-CN': '无法从 {url} 加载密钥集：{reason}',
    'zh-MO': '無法從 {url} 載入金鑰集：{reason}',
  },
  clockOk: {
    'en-US': "The provider's clock differs from this server's by {skew} s (at most {bound} s allowed)",
    'zh-CN': '身份提供方的时钟与本服务器相差 {skew} 秒（最多允许 {bound} 秒）',
    'zh-MO': '身份提供方的時鐘與本伺服器相差 {skew} 秒（最多允許 {bound} 秒）',
  },
  clockOff: {
    'en-US': "The provider's clock differs from this server's by {skew} s, more than the {bound} s allowed: its tokens would be refused; set both clocks by NTP",
    'zh-CN': '身份提供方的时钟与本服务器相差 {skew} 秒，超过允许的 {bound} 秒：其令牌将被拒绝；请用 NTP 校准双方时钟',
    'zh-MO': '身份提供方的時鐘與本伺服器相差 {skew} 秒，超過允許的 {bound} 秒：其權杖將被拒絕；請用 NTP 校準雙方時鐘',
  },
  clockUnknown: {
    'en-US': "The provider's answers had no Date header: its clock could not be compared",
    'zh-CN': '身份提供方的应答没有 Date 标头：无法比较其时钟',
    'zh-MO': '身份提供方的應答沒有 Date 標頭：無法比較其時鐘',
  },
  notTried: {
    'en-US': 'Not tried: the step before failed',
    'zh-CN': '未尝试：上一步失败',
    'zh-MO': '未嘗試：上一步失敗',
  },
} satisfies Record<string, Localised>;

function say(text: Localised, lang: LanguageCode, values: Record<string, string | number>): string {
  return text[lang].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname === 'localhost';
}

function configInvalid(field: 'discoveryUrl' | 'clientId' | 'clientSecret' | 'scopes' | 'accountClaim'): AppError {
  return new AppError(codes.ssoProviderConfigInvalid, { status: 400, values: { field } });
}

/** Where the discovery document is and the issuer it must name (null: a document URL of another shape, used as is). */
function discoveryTarget(settings: OidcProviderSettings): { server: URL; documentUrl: string } {
  let url: URL;
  try {
    url = new URL(settings.discoveryUrl.trim());
  } catch {
    throw configInvalid('discoveryUrl');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) throw configInvalid('discoveryUrl');
  if (url.search || url.hash) throw configInvalid('discoveryUrl');
  if (url.pathname.endsWith(wellKnown)) {
    // the issuer is what precedes the well-known suffix: openid-client then checks the document names exactly it
    const issuer = new URL(url.href.slice(0, url.href.length - wellKnown.length));
    return { server: issuer, documentUrl: url.href };
  }
  if (url.pathname.includes('/.well-known/')) return { server: url, documentUrl: url.href };
  const issuer = url.href.replace(/\/$/, '');
  return { server: new URL(issuer), documentUrl: `${issuer}${wellKnown}` };
}

function scopesOf(settings: OidcProviderSettings): string {
  return [...new Set(['openid', ...settings.scopes.split(/[\s,]+/).filter(Boolean)])].join(' ');
}

export class OidcClient implements ProtocolClient {
  readonly kind = 'oidc' as const;
  private readonly now: () => number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly discoveryTtlMs: number;
  private readonly keysRefetchCooldownMs: number;
  private readonly cache = new Map<string, Discovered>();

  constructor(deps: OidcClientDeps = {}) {
    this.now = deps.now ?? Date.now;
    this.timeoutMs = deps.timeoutMs ?? 5000;
    this.fetchImpl = deps.fetch ?? providerFetch({ policy: new ProviderNetworkPolicy() });
    this.discoveryTtlMs = deps.discoveryTtlMs ?? 5 * 60_000;
    this.keysRefetchCooldownMs = deps.keysRefetchCooldownMs ?? 10_000;
  }

  async authorizationUrl(provider: ProviderForProtocol, roundTrip: RoundTrip): Promise<string> {
    const p = this.oidc(provider);
    const call = this.newCall();
    const { config } = await this.configuration(p, call);
    const url = client.buildAuthorizationUrl(config, {
      response_type: 'code',
      redirect_uri: roundTrip.redirectUri,
      scope: scopesOf(p.settings),
      state: roundTrip.state,
      nonce: roundTrip.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(roundTrip.codeVerifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  async finish(provider: ProviderForProtocol, roundTrip: RoundTrip, callbackUrl: URL): Promise<SignedInAtProvider> {
    const p = this.oidc(provider);
    // the state is compared first and on its own: a changed one is the round trip's failure, not the provider's
    if (callbackUrl.searchParams.get('state') !== roundTrip.state) throw new AppError(codes.ssoStateInvalid, { status: 400 });
    if (callbackUrl.searchParams.has('error')) throw new AppError(codes.ssoSignInDeclined, { status: 401 });
    const call = this.newCall();
    const { config, entry, handedKeys } = await this.configuration(p, call);
    // the callback as registered (the request may have reached this server through a proxy under another origin)
    const current = new URL(roundTrip.redirectUri);
    current.search = callbackUrl.search;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: roundTrip.codeVerifier,
        expectedState: roundTrip.state,
        expectedNonce: roundTrip.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.failure(error, call, 'token');
    } finally {
      this.keepKeys(entry, config, handedKeys);
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new AppError(codes.ssoTokenRejected, { status: 401 });
    // openid-client checks exp (and nbf) with the tolerance; an ID token issued in the server's future is refused too
    const nowSeconds = Math.floor(this.now() / 1000);
    if (typeof claims.iat !== 'number' || claims.iat > nowSeconds + ssoClockSkewSeconds) throw new AppError(codes.ssoTokenRejected, { status: 401 });
    let account = this.claimOf(claims, p.settings.accountClaim);
    if (account === null && tokens.access_token && config.serverMetadata().userinfo_endpoint) {
      // providers that keep profile claims out of the ID token (OpenID Connect Core 5.4) answer them at userinfo
      try {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        account = this.claimOf(info, p.settings.accountClaim);
      } catch (error) {
        throw this.failure(error, call, 'token');
      }
    }
    if (account === null) throw new AppError(codes.ssoAccountClaimMissing, { status: 401 });
    return {
      account,
      subject: claims.sub,
      providerSession: typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : null,
      idToken: tokens.id_token,
    };
  }

  async logoutUrl(provider: ProviderForProtocol, session: { idToken: string | null }, postLogoutRedirectUri: string): Promise<string | null> {
    const p = this.oidc(provider);
    const call = this.newCall();
    const { config } = await this.configuration(p, call);
    if (!config.serverMetadata().end_session_endpoint) return null;
    const parameters: Record<string, string> = { client_id: p.settings.clientId.trim(), post_logout_redirect_uri: postLogoutRedirectUri };
    if (session.idToken) parameters.id_token_hint = session.idToken;
    return client.buildEndSessionUrl(config, parameters).href;
  }

  async readLogout(provider: ProviderForProtocol, form: Record<string, string>): Promise<ProviderLogout> {
    const p = this.oidc(provider);
    const token = form.logout_token;
    if (typeof token !== 'string' || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new AppError(codes.ssoResponseInvalid, { status: 400 });
    const refused = () => new AppError(codes.ssoTokenRejected, { status: 400 });
    const call = this.newCall();
    const { config, entry } = await this.configuration(p, call);
    const metadata = config.serverMetadata();
    const verify = async (jwks: JSONWebKeySet) =>
      jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: metadata.issuer,
        audience: p.settings.clientId.trim(),
        // the provider's asymmetric algorithms only (a shared-secret or "none" token is never a provider's signature)
        algorithms: (metadata.id_token_signing_alg_values_supported ?? ['RS256']).filter((alg) => /^(RS|PS|ES|Ed)/.test(alg)),
        clockTolerance: ssoClockSkewSeconds,
        currentDate: new Date(this.now()),
        maxTokenAge: logoutTokenMaxAgeSeconds,
        requiredClaims: ['iat', 'jti', 'events'],
      });
    let claims: Record<string, unknown>;
    try {
      let jwks = entry.keys?.jwks as JSONWebKeySet | undefined;
      if (!jwks) jwks = await this.readKeys(entry, metadata, call);
      try {
        ({ payload: claims } = await verify(jwks));
      } catch (error) {
        // a key the cached set lacks: the provider may have rotated; read its keys again (not more often than the cooldown)
        if (!(error instanceof joseErrors.JWKSNoMatchingKey) || !this.mayReadKeys(entry)) throw error;
        ({ payload: claims } = await verify(await this.readKeys(entry, metadata, call)));
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (call.refused) throw addressRefusedError('oidc.discoveryUrl');
      if (call.unreachable) throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
      throw refused();
    }
    // OpenID Connect Back-Channel Logout 1.0, 2.6: the events member, no nonce, a sid or a sub
    const events = claims.events;
    const event = events && typeof events === 'object' ? (events as Record<string, unknown>)[backchannelLogoutEvent] : undefined;
    if (!event || typeof event !== 'object' || Array.isArray(event)) throw refused();
    if ('nonce' in claims) throw refused();
    // 2.4: jti is REQUIRED; the flow acts on each token once, so it is remembered while the token could still be
    // accepted: until its exp, or its iat plus the largest age, whichever comes first, plus the clock skew (jose's
    // checks above, in whole seconds: one more for the rounding)
    const { jti, iat, exp } = claims;
    if (typeof jti !== 'string' || jti === '' || typeof iat !== 'number') throw refused();
    const lastSecond = Math.min(typeof exp === 'number' ? exp : Infinity, iat + logoutTokenMaxAgeSeconds) + ssoClockSkewSeconds + 1;
    const once = { id: jti, acceptableUntil: lastSecond * 1000 };
    if (typeof claims.sid === 'string' && claims.sid !== '') return { providerSession: claims.sid, once };
    if (typeof claims.sub === 'string' && claims.sub !== '') return { subject: claims.sub, once };
    throw refused();
  }

  async test(provider: ProviderForProtocol, lang: LanguageCode): Promise<IdentityProviderTestResult> {
    const p = this.oidc(provider);
    const steps: IdentityProviderTestResult['steps'] = [];
    const seconds = Math.round(this.timeoutMs / 1000);
    const call = this.newCall();
    const notTried = (step: 'keys' | 'clock') => steps.push({ step, ok: false, detail: say(texts.notTried, lang, {}) });
    let target: { documentUrl: string };
    try {
      target = discoveryTarget(p.settings);
    } catch (error) {
      const reason = error instanceof AppError ? error.messageIn(lang) : String(error);
      steps.push({ step: 'discovery', ok: false, detail: say(texts.discoveryInvalid, lang, { url: p.settings.discoveryUrl, reason }) });
      notTried('keys');
      notTried('clock');
      return { ok: false, steps, clockSkewSeconds: null };
    }

    // 1. discovery: always read anew (and the cache refreshed with it)
    this.cache.delete(p.id);
    let config: client.Configuration;
    let entry: Discovered;
    try {
      ({ config, entry } = await this.configuration(p, call));
      steps.push({ step: 'discovery', ok: true, detail: say(texts.discoveryOk, lang, { url: target.documentUrl, issuer: config.serverMetadata().issuer }) });
    } catch (error) {
      const unreachable = error instanceof AppError && error.code === codes.ssoProviderUnreachable;
      const refusedAddress = error instanceof AppError && error.code === codes.ssoProviderAddressRefused;
      const reason = error instanceof AppError ? error.messageIn(lang) : String(error);
      steps.push({
        step: 'discovery',
        ok: false,
        detail: refusedAddress ? reason : unreachable ? say(texts.discoveryUnreachable, lang, { url: target.documentUrl, seconds }) : say(texts.discoveryInvalid, lang, { url: target.documentUrl, reason }),
      });
      notTried('keys');
      notTried('clock');
      return { ok: false, steps, clockSkewSeconds: null };
    }

    // 2. keys
    const metadata = config.serverMetadata();
    const jwksUri = metadata.jwks_uri ?? '';
    let keysOk = false;
    try {
      const jwks = await this.readKeys(entry, metadata, call);
      const signing = jwks.keys.filter((key) => key.use === undefined || key.use === 'sig');
      keysOk = signing.length > 0;
      steps.push({ step: 'keys', ok: keysOk, detail: say(keysOk ? texts.keysOk : texts.keysNone, lang, { url: jwksUri, count: signing.length }) });
    } catch (error) {
      const reason = error instanceof AppError ? error.messageIn(lang) : String(error);
      steps.push({ step: 'keys', ok: false, detail: say(texts.keysFailed, lang, { url: jwksUri, reason }) });
    }

    // 3. clock: the Date header of the provider's answers against this server's clock (HTTP dates are to the second)
    const compared = call.dates
      .map(({ date, at }) => ({ provider: Date.parse(date), at }))
      .filter((one) => Number.isFinite(one.provider))
      .map((one) => Math.round((one.provider - one.at) / 1000));
    let clockSkewSeconds: number | null = null;
    let clockOk = true;
    if (compared.length === 0) {
      steps.push({ step: 'clock', ok: true, detail: say(texts.clockUnknown, lang, {}) });
    } else {
      clockSkewSeconds = compared.reduce((worst, one) => (Math.abs(one) > Math.abs(worst) ? one : worst), 0);
      clockOk = Math.abs(clockSkewSeconds) <= ssoClockSkewSeconds;
      steps.push({ step: 'clock', ok: clockOk, detail: say(clockOk ? texts.clockOk : texts.clockOff, lang, { skew: clockSkewSeconds, bound: ssoClockSkewSeconds }) });
    }
    return { ok: keysOk && clockOk, steps, clockSkewSeconds };
  }

  // --- inside -----------------------------------------------------------------------------------------------------

  private oidc(provider: ProviderForProtocol): OidcProvider {
    if (provider.kind !== 'oidc') throw new AppError(codes.ssoProviderConfigInvalid, { status: 400, values: { field: 'kind' } });
    if (!provider.settings.clientId.trim()) throw configInvalid('clientId');
    if (!provider.settings.accountClaim.trim()) throw configInvalid('accountClaim');
    return provider;
  }

  private newCall(): Call {
    return { unreachable: false, refused: false, dates: [] };
  }

  private claimOf(claims: Record<string, unknown>, name: string): string | null {
    const value = claims[name.trim()];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    return null;
  }

  /** The fetch of one operation: the timeout, and what it learns about the provider's answers. */
  private outbound(call: Call): typeof fetch {
    return async (input, init) => {
      const signals = [AbortSignal.timeout(this.timeoutMs)];
      if (init?.signal) signals.push(init.signal);
      try {
        const response = await this.fetchImpl(input, { ...init, signal: AbortSignal.any(signals) });
        const date = response.headers.get('date');
        if (date) call.dates.push({ date, at: this.now() });
        if (response.status >= 500) call.unreachable = true;
        return response;
      } catch (error) {
        call.unreachable = true;
        if (isAddressRefused(error)) call.refused = true;
        throw error;
      }
    };
  }

  /**
   * A Configuration for this call. The discovery document comes from the cache when it is younger than the TTL and
   * was read with the same settings; openid-client still checks it (issuer) every time, as it was served.
   */
  private async configuration(p: OidcProvider, call: Call): Promise<{ config: client.Configuration; entry: Discovered; handedKeys: client.ExportedJWKSCache | undefined }> {
    const target = discoveryTarget(p.settings);
    const key = JSON.stringify([target.documentUrl]);
    let entry = this.cache.get(p.id);
    if (entry && (entry.key !== key || this.now() - entry.fetchedAt >= this.discoveryTtlMs)) {
      this.cache.delete(p.id);
      entry = undefined;
    }
    const outbound = this.outbound(call);
    let served: string | null = null;
    const cached = entry?.document;
    const discoveryFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url === target.documentUrl && cached !== undefined) {
        return new Response(cached, { status: 200, headers: { 'content-type': 'application/json' } });
      }
      const response = await outbound(input, init);
      if (url === target.documentUrl && response.ok) {
        served = await response.clone().text();
      }
      return response;
    };
    const secret = p.clientSecret ?? '';
    // client authentication: a secret goes in the Authorization header unless the provider takes it only in the body;
    // without a secret, a public client (PKCE alone)
    const auth: client.ClientAuth = !secret
      ? client.None()
      : (as, c, body, headers) => {
          const methods = as.token_endpoint_auth_methods_supported;
          const onlyPost = methods !== undefined && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
          (onlyPost ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret))(as, c, body, headers);
        };
    let config: client.Configuration;
    try {
      config = await client.discovery(
        target.server,
        p.settings.clientId.trim(),
        // the library's clock is the server's (`now`), and the provider's may differ by ssoClockSkewSeconds
        { [client.clockSkew]: Math.round((this.now() - Date.now()) / 1000), [client.clockTolerance]: ssoClockSkewSeconds },
        auth,
        {
          [client.customFetch]: discoveryFetch,
          timeout: Math.ceil(this.timeoutMs / 1000),
          execute: isLoopback(target.server) ? [client.allowInsecureRequests] : [],
        },
      );
    } catch (error) {
      throw this.failure(error, call, 'discovery');
    }
    // every later call of this Configuration goes through the outbound fetch (timeout, dates)
    config[client.customFetch] = outbound;
    // the ID token's signature is checked against the provider's keys even though it came from the token endpoint
    // (openid-client leaves that to TLS unless told): a forged or replaced token is refused, not trusted
    client.enableNonRepudiationChecks(config);
    if (!entry) {
      entry = { key, fetchedAt: this.now(), document: served ?? JSON.stringify(config.serverMetadata()), keys: undefined, keysReadAt: -Infinity };
      this.cache.set(p.id, entry);
    }
    const handedKeys = this.handKeys(entry, config);
    return { config, entry, handedKeys };
  }

  /**
   * Gives the Configuration the cached key set. openid-client reads the keys again by itself when a token names a
   * key they lack, but only once they are 60 s old; handing them over as that old lets a rotated key be found at once
   * (past the cooldown), while a key still missing after the new read is refused.
   */
  private handKeys(entry: Discovered, config: client.Configuration): client.ExportedJWKSCache | undefined {
    if (!entry.keys) return undefined;
    const nowSeconds = Math.floor(Date.now() / 1000);
    const handed = this.mayReadKeys(entry) ? { ...entry.keys, uat: Math.min(entry.keys.uat, nowSeconds - 60) } : { ...entry.keys };
    client.setJwksCache(config, handed);
    return handed;
  }

  /** Keeps the key set the Configuration read (when it read one). */
  private keepKeys(entry: Discovered, config: client.Configuration, handed: client.ExportedJWKSCache | undefined): void {
    const after = client.getJwksCache(config);
    if (after && (!handed || after.uat !== handed.uat)) {
      entry.keys = structuredClone(after);
      entry.keysReadAt = this.now();
    }
  }

  private mayReadKeys(entry: Discovered): boolean {
    return this.now() - entry.keysReadAt >= this.keysRefetchCooldownMs;
  }

  /** Reads the provider's key set from jwks_uri (and keeps it for openid-client too). */
  private async readKeys(entry: Discovered, metadata: client.ServerMetadata, call: Call): Promise<JSONWebKeySet> {
    if (!metadata.jwks_uri) throw new AppError(codes.ssoResponseInvalid, { status: 502 });
    let response: Response;
    try {
      response = await this.outbound(call)(metadata.jwks_uri, { headers: { accept: 'application/json, application/jwk-set+json' }, redirect: 'manual' });
    } catch (error) {
      if (isAddressRefused(error)) throw addressRefusedError('oidc.discoveryUrl');
      throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
    }
    if (response.status >= 500) throw new AppError(codes.ssoProviderUnreachable, { status: 502 });
    let jwks: unknown;
    try {
      jwks = response.ok ? await response.json() : null;
    } catch {
      jwks = null;
    }
    if (!jwks || typeof jwks !== 'object' || !Array.isArray((jwks as { keys?: unknown }).keys)) throw new AppError(codes.ssoResponseInvalid, { status: 502 });
    entry.keys = { jwks: jwks as client.ExportedJWKSCache['jwks'], uat: Math.floor(Date.now() / 1000) };
    entry.keysReadAt = this.now();
    return jwks as JSONWebKeySet;
  }

  /** openid-client's errors as the business codes of the flow. */
  private failure(error: unknown, call: Call, phase: 'discovery' | 'token'): AppError {
    if (error instanceof AppError) return error;
    if (call.refused) return addressRefusedError('oidc.discoveryUrl');
    if (call.unreachable) return new AppError(codes.ssoProviderUnreachable, { status: 502 });
    if (phase === 'discovery') return configInvalid('discoveryUrl');
    if (error instanceof client.AuthorizationResponseError) return new AppError(codes.ssoSignInDeclined, { status: 401 });
    // the token endpoint refused this server as its client (RFC 6749 5.2 invalid_client; a 401 with a challenge)
    if (error instanceof client.ResponseBodyError && error.error === 'invalid_client') return configInvalid('clientSecret');
    if (error instanceof client.WWWAuthenticateChallengeError && error.response.status === 401) return configInvalid('clientSecret');
    return new AppError(codes.ssoTokenRejected, { status: 401 });
  }
}

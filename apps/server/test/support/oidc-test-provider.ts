import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { JWK } from 'jose';
import Provider from 'oidc-provider';
import type { Adapter, AdapterPayload, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { freePort } from './free-port.ts';

// A real OpenID Provider for tests (issue 49): oidc-provider 9.x, an OpenID-certified implementation, on 127.0.0.1
// at a port the system gives. It has its own login page (a user name and a password form), one confidential client
// registered with the redirect URIs the test gives, back-channel logout, RP-initiated logout and key rotation.
//
//   const op = await startOidcTestProvider({ redirectUris: [callback], backchannelLogoutUri, users: [{ username: 'zhang' }] });
//   settings = { discoveryUrl: op.discoveryUrl, clientId: op.clientId, ... }, secret = op.clientSecret
//   const { callbackUrl, browser } = await op.signIn(authorizationUrl, 'zhang');   // drives the login page with fetch
//   await op.rotateKeys();                     // a new signing key signs from now on (the old one stays published)
//   await op.logout(browser);                  // ends the provider's session: it posts logout_token to backchannelLogoutUri
//   op.changeTokenAnswers((body) => { body.id_token = forged; });   // a man in the middle of the token endpoint
//   await op.close();
//
// The login page (for a browser test): GET /interaction/<uid> answers an HTML form with the fields `username` and
// `password` (labels "User name", "Password") and a submit button "Sign in"; an unknown user or a wrong password
// answers the form again with "Unknown user or wrong password". Consent is given without a page (a first-party
// client). The logout confirmation (GET /session/end) has the buttons "Yes, sign me out" and "No, stay signed in";
// afterwards the browser goes to the post_logout_redirect_uri, or to a page "You are signed out".
// The pages load nothing from elsewhere. Node 20 prints oidc-provider's "Unsupported runtime" warning: it runs.

export interface OidcTestUser {
  username: string;
  /** When given, the login form must be sent with it; otherwise any password (or none) is accepted. */
  password?: string;
  /** The `sub` claim (and the provider's account id); default `sub-<username>`. */
  sub?: string;
  /** Left out of the ID token when not given (a test of a claim the provider does not send). */
  email?: string;
  name?: string;
}

export interface OidcTestProviderOptions {
  redirectUris: string[];
  /** Where the provider posts its back-channel logout_token; none when left out. */
  backchannelLogoutUri?: string;
  /** Allowed post_logout_redirect_uri values; default the redirect URIs' origins + '/login'. */
  postLogoutRedirectUris?: string[];
  users: OidcTestUser[];
  /** A public client (PKCE, no secret: token_endpoint_auth_method none) instead of a confidential one. */
  publicClient?: boolean;
  /**
   * Keep the profile and email claims out of the ID token (OpenID Connect Core 5.4, oidc-provider's default): the
   * relying party must read them at userinfo. Default false: they are in the ID token, as Keycloak sends them.
   */
  claimsAtUserinfoOnly?: boolean;
  /** client_secret_basic (default) or client_secret_post. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  /** The client's id (default a random one): two providers with one client id and one key set differ only by issuer. */
  clientId?: string;
  /** Private JWKs to sign with (default one new RS256 key): see signingKeys(). */
  signingKeys?: JWK[];
}

/** The cookies of one user agent, kept across the provider's redirects. */
export interface TestBrowser {
  cookies: Map<string, string>;
}

export interface OidcTestProvider {
  /** http://127.0.0.1:<port> (no trailing slash). */
  issuer: string;
  /** `${issuer}/.well-known/openid-configuration` */
  discoveryUrl: string;
  clientId: string;
  /** null for a public client. */
  clientSecret: string | null;
  /** A second confidential client of the same provider, same redirect URIs: its ID tokens are for another audience. */
  otherClient: { clientId: string; clientSecret: string };
  /** The private signing keys (for a second provider that signs with the same keys under another issuer). */
  signingKeys(): JWK[];
  /** The kid of the key that signs now. */
  signingKid(): string;
  /**
   * Makes a new RS256 key the signing key; the old ones stay published unless `dropOld` (a provider that removed
   * its old key at once). Sessions and codes the provider already gave survive.
   */
  rotateKeys(options?: { dropOld?: boolean }): Promise<string>;
  /**
   * Drives the login page with fetch as a browser would: follows the redirects from `authorizationUrl` with cookies,
   * fills the form with `username` (and `password`), and stops at the first redirect to a URL outside the provider
   * (the relying party's callback), which it returns unfetched. Pass `browser` to reuse a session (no form then).
   */
  signIn(authorizationUrl: string, username: string, options?: { password?: string; browser?: TestBrowser }): Promise<{ callbackUrl: URL; browser: TestBrowser }>;
  /**
   * Ends the user's session at the provider as its logout page does (GET end_session, confirm the form). The
   * provider posts a logout_token to the client's back-channel logout URI before this resolves. Returns where the
   * provider sent the browser afterwards (the post_logout_redirect_uri when one was given and registered).
   */
  logout(browser: TestBrowser, options?: { idTokenHint?: string; postLogoutRedirectUri?: string }): Promise<URL | null>;
  /**
   * From now on the token endpoint's JSON answers pass through `change` before they leave, as if someone between
   * the relying party and the provider changed them (a browser test cannot reach that request: it goes server to
   * provider). `null` lets them through unchanged again.
   */
  changeTokenAnswers(change: TokenAnswerChange | null): void;
  /** Stops answering (connections are refused afterwards): a provider that is down. */
  stop(): Promise<void>;
  /** Answers again on the same port after stop(). */
  resume(): Promise<void>;
  close(): Promise<void>;
}

/** Changes the parsed JSON answer of the token endpoint in place (see changeTokenAnswers). */
export type TokenAnswerChange = (body: Record<string, unknown>) => Promise<void> | void;

function newSigningKey(): JWK {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

const loginPage = (uid: string, error: string | null): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign in</title></head>
<body><main><h1>Test identity provider</h1>
${error ? `<p role="alert">${error}</p>` : ''}
<form method="post" action="/interaction/${uid}/login">
<label>User name <input name="username" autocomplete="username" autofocus></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button>
</form></main></body></html>`;

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** The provider's store, in memory and per test provider: its instances before and after a key rotation share it. */
function memoryAdapter(store: Map<string, { payload: AdapterPayload; expiresAt: number }>) {
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry && entry.expiresAt <= Date.now()) store.delete(key);
    return store.get(key)?.payload;
  };
  return class TestAdapter implements Adapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Infinity });
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      for (const key of store.keys()) if (key.startsWith(`${this.model}:`) && live(key)?.uid === uid) return live(key);
      return undefined;
    }
    async findByUserCode(userCode: string) {
      for (const key of store.keys()) if (key.startsWith(`${this.model}:`) && live(key)?.userCode === userCode) return live(key);
      return undefined;
    }
    async consume(id: string): Promise<void> {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string): Promise<void> {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

export async function startOidcTestProvider(options: OidcTestProviderOptions): Promise<OidcTestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? `campus-${randomBytes(4).toString('hex')}`;
  const otherClient = { clientId: `other-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url') };
  const clientSecret = options.publicClient ? null : randomBytes(24).toString('base64url');
  const users = options.users.map((u) => ({ ...u, sub: u.sub ?? `sub-${u.username}` }));
  const cookieKeys = [randomBytes(32).toString('hex')];
  const Store = memoryAdapter(new Map());
  let keys: JWK[] = options.signingKeys ? structuredClone(options.signingKeys) : [newSigningKey()];

  const client: NonNullable<Configuration['clients']>[number] = {
    client_id: clientId,
    ...(clientSecret === null
      ? { token_endpoint_auth_method: 'none' }
      : { client_secret: clientSecret, token_endpoint_auth_method: options.tokenEndpointAuthMethod ?? 'client_secret_basic' }),
    redirect_uris: options.redirectUris,
    post_logout_redirect_uris: options.postLogoutRedirectUris ?? [...new Set(options.redirectUris.map((u) => `${new URL(u).origin}/login`))],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    ...(options.backchannelLogoutUri ? { backchannel_logout_uri: options.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
  };

  const build = (): Provider => {
    const configuration: Configuration = {
      adapter: Store,
      clients: [
        client,
        {
          client_id: otherClient.clientId,
          client_secret: otherClient.clientSecret,
          redirect_uris: options.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: keys as NonNullable<Configuration['jwks']>['keys'] },
      cookies: { keys: cookieKeys },
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'], email: ['email'] },
      scopes: ['openid', 'profile', 'email'],
      features: {
        devInteractions: { enabled: false },
        backchannelLogout: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          // pages of its own, with nothing loaded from elsewhere (the defaults load web fonts from the internet)
          logoutSource: (ctx, form) => {
            ctx.type = 'html';
            ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider: sign out</title></head>
<body><main><h1>Sign out of the test identity provider?</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button></main></body></html>`;
          },
          postLogoutSuccessSource: (ctx) => {
            ctx.type = 'html';
            ctx.body = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signed out</title></head><body><main><h1>You are signed out</h1></main></body></html>';
          },
        },
      },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 3600 },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => {
        const user = users.find((u) => u.sub === id);
        if (!user) return undefined;
        return {
          accountId: user.sub,
          claims: () => ({
            sub: user.sub,
            preferred_username: user.username,
            ...(user.email !== undefined ? { email: user.email } : {}),
            ...(user.name !== undefined ? { name: user.name } : {}),
          }),
        };
      },
      // by default the claims of the granted scopes go into the ID token itself; see claimsAtUserinfoOnly
      conformIdTokenClaims: options.claimsAtUserinfoOnly === true,
      pkce: { required: () => true },
      // oidc-provider refuses to call special-use addresses (SSRF); this provider and its relying party live on loopback
      fetch: (url, init) => {
        const { dispatcher: _ssrfGuard, ...rest } = init as RequestInit & { dispatcher?: unknown };
        return globalThis.fetch(url, rest);
      },
      renderError: (ctx, out) => {
        ctx.type = 'html';
        ctx.body = `<!doctype html><title>Error</title><p>${String(out.error)}: ${String(out.error_description ?? '')}</p>`;
      },
    };
    const provider = new Provider(issuer, configuration);
    provider.on('server_error', (_ctx: unknown, err: Error) => console.error('oidc-test-provider', err));
    provider.on('backchannel.error', (_ctx: unknown, err: Error) => console.error('oidc-test-provider backchannel', err));
    return provider;
  };

  let provider = build();

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, uid: string, action: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (details.prompt.name === 'consent') {
      // A first-party client: the requested scopes and claims are granted without a page.
      const grant = details.grantId ? ((await provider.Grant.find(details.grantId)) ?? null) : null;
      const g = grant ?? new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) g.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) g.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await g.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === 'POST' && action === 'login') {
      const form = await readForm(req);
      const user = users.find((u) => u.username === form.get('username'));
      if (!user || (user.password !== undefined && user.password !== form.get('password'))) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(loginPage(uid, 'Unknown user or wrong password'));
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(loginPage(uid, null));
  }

  // changeTokenAnswers: the token request is played once more, to this same server, and its answer changed on the
  // way back; the header (a secret of this provider) marks the inner request, which goes to the provider as it came
  let tokenAnswerChange: TokenAnswerChange | null = null;
  const innerRequestHeader = 'x-oidc-test-provider-inner';
  const innerRequestSecret = randomBytes(16).toString('hex');
  async function changedTokenAnswer(req: http.IncomingMessage, res: http.ServerResponse, change: TokenAnswerChange): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = { [innerRequestHeader]: innerRequestSecret };
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const inner = await fetch(`${issuer}${req.url ?? '/token'}`, { method: 'POST', headers, body: Buffer.concat(chunks) });
    const text = await inner.text();
    let body: string = text;
    if (inner.ok && (inner.headers.get('content-type') ?? '').includes('json')) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      await change(parsed);
      body = JSON.stringify(parsed);
    }
    res.writeHead(inner.status, { 'content-type': inner.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
    res.end(body);
  }

  const server = http.createServer((req, res) => {
    const change = tokenAnswerChange;
    if (change && req.method === 'POST' && /^\/token(?:\?|$)/.test(req.url ?? '') && req.headers[innerRequestHeader] !== innerRequestSecret) {
      changedTokenAnswer(req, res, change).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`changing the token answer failed: ${String(err)}`);
      });
      return;
    }
    const match = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?(?:\?.*)?$/.exec(req.url ?? '');
    if (match) {
      interaction(req, res, match[1]!, match[2]).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`interaction failed: ${String(err)}`);
      });
      return;
    }
    void provider.callback()(req, res);
  });
  const listen = () => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stopListening = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await listen();
  let listening = true;

  /** One request as the browser makes it: cookies in, Set-Cookie kept, no redirect followed. */
  async function request(browser: TestBrowser, url: URL, init: { method?: string; form?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (browser.cookies.size > 0) headers.cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.form?.toString(), redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) browser.cookies.delete(name);
      else browser.cookies.set(name, value);
    }
    return response;
  }

  function formOf(html: string, base: URL): { action: URL; fields: URLSearchParams } {
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (!form) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
      const name = /name="([^"]+)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
      if (name) fields.set(name, value);
    }
    return { action: new URL(form[1]!.replace(/&amp;/g, '&'), base), fields };
  }

  const signIn: OidcTestProvider['signIn'] = async (authorizationUrl, username, opts = {}) => {
    const browser = opts.browser ?? { cookies: new Map() };
    let url = new URL(authorizationUrl);
    let method = 'GET';
    let form: URLSearchParams | undefined;
    for (let hop = 0; hop < 20; hop++) {
      if (url.origin !== issuer) return { callbackUrl: url, browser };
      const response = await request(browser, url, { method, form });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        method = 'GET';
        form = undefined;
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`the provider answered ${response.status}: ${html.slice(0, 300)}`);
      if (html.includes('role="alert"')) throw new Error(`the provider refused the sign-in of ${username}`);
      const page = formOf(html, url);
      page.fields.set('username', username);
      page.fields.set('password', opts.password ?? users.find((u) => u.username === username)?.password ?? '');
      url = page.action;
      method = 'POST';
      form = page.fields;
    }
    throw new Error('too many redirects at the provider');
  };

  const logout: OidcTestProvider['logout'] = async (browser, opts = {}) => {
    const endSession = new URL(`${issuer}/session/end`);
    endSession.searchParams.set('client_id', clientId);
    if (opts.idTokenHint) endSession.searchParams.set('id_token_hint', opts.idTokenHint);
    if (opts.postLogoutRedirectUri) endSession.searchParams.set('post_logout_redirect_uri', opts.postLogoutRedirectUri);
    const page = await request(browser, endSession);
    const html = await page.text();
    if (page.status !== 200) throw new Error(`end_session answered ${page.status}: ${html.slice(0, 300)}`);
    const { action, fields } = formOf(html, endSession);
    fields.set('logout', 'yes');
    const done = await request(browser, action, { method: 'POST', form: fields });
    const location = done.headers.get('location');
    return location ? new URL(location, action) : null;
  };

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    otherClient,
    signingKeys: () => structuredClone(keys),
    signingKid: () => keys[0]!.kid!,
    rotateKeys: async ({ dropOld = false } = {}) => {
      const key = newSigningKey();
      keys = dropOld ? [key] : [key, ...keys];
      // oidc-provider reads its keys when built: a new instance on the same port, store and cookie keys, so the
      // sessions and codes it gave carry over
      provider = build();
      return key.kid!;
    },
    signIn,
    logout,
    changeTokenAnswers: (change) => {
      tokenAnswerChange = change;
    },
    stop: async () => {
      if (!listening) return;
      listening = false;
      await stopListening();
    },
    resume: async () => {
      if (listening) return;
      await listen();
      listening = true;
    },
    close: async () => {
      if (!listening) return;
      listening = false;
      await stopListening();
    },
  };
}

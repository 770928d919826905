import { Type } from 'typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiPaths, codes, passwordDigestPattern } from '@campus/contracts';
import type { App, SessionInfo } from '../../http/types.ts';
import { AppError, InvalidRequest, envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { AccountService } from '../account/account-service.ts';
import type { CaptchaService } from './captcha-service.ts';
import type { LoginService } from './login-service.ts';

/** No control characters (PostgreSQL text refuses NUL; nobody types the others). */
const printable = '^[^\\u0000-\\u001f\\u007f]*$';
const Account = Type.String({ minLength: 1, maxLength: 64, pattern: printable, description: 'Login name' });
const TenantCode = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]*$' });
const Digest = Type.String({ pattern: passwordDigestPattern, description: 'Lowercase hex SHA-256 (SM3 in national-crypto mode) of the UTF-8 password' });
const VerifyModel = Type.Object({
  verifyKey: Type.Optional(Type.String({ maxLength: 64, pattern: printable })),
  imageVerifyCode: Type.Optional(Type.String({ maxLength: 16, pattern: printable })),
});
const LoginInfo = Type.Object({ token: Type.String(), tenantCode: Type.String() });
const TenantEntry = Type.Object({ code: Type.String(), name: Type.String() });

export interface AuthRouteDeps {
  login: LoginService;
  captcha: CaptchaService;
  account: AccountService;
  requireSession: onRequestHookHandler;
  rateLimitPerMinute: number;
  /**
   * Where the browser goes after Quit to end the session's identity provider session too (issue 49), or null; handed
   * over by app.ts (the sso area sits above auth). Asked before the session ends.
   */
  providerLogoutUrl?: (session: SessionInfo, request: FastifyRequest) => Promise<string | null>;
}

export function registerAuthRoutes(app: App, deps: AuthRouteDeps) {
  const { login, captcha, account, requireSession } = deps;
  const rateLimit = { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    apiPaths.webLogin,
    {
      config: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Password sign-in (login type 1)',
        headers: languageHeaders,
        body: Type.Object({ user: Type.Object({ account: Account, password: Digest, tenantCode: TenantCode }), verifyModel: Type.Optional(VerifyModel) }),
        response: { 200: envelope(Type.Object({ loginInfo: LoginInfo })), ...failureReplies },
      },
    },
    async (request) => {
      const { user, verifyModel } = request.body;
      const loginInfo = await login.passwordLogin({ account: user.account, digest: user.password, tenantCode: user.tenantCode, verifyModel, clientIp: request.ip });
      return ok(request, { loginInfo });
    },
  );

  app.post(
    apiPaths.accountLogin,
    {
      config: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Password sign-in by account; without tenantCode it works when the account is in exactly one tenant',
        headers: languageHeaders,
        body: Type.Object({ account: Account, password: Digest, tenantCode: Type.Optional(TenantCode), verifyModel: Type.Optional(VerifyModel) }),
        response: { 200: envelope(LoginInfo), ...failureReplies },
      },
    },
    async (request) => {
      const b = request.body;
      const info = await login.passwordLogin({ account: b.account, digest: b.password, tenantCode: b.tenantCode, verifyModel: b.verifyModel, clientIp: request.ip });
      return ok(request, info);
    },
  );

  app.post(
    apiPaths.ldapLogin,
    {
      config: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'LDAP sign-in (login type 2); the local account must exist in the tenant',
        headers: languageHeaders,
        body: Type.Object({
          account: Account,
          password: Type.String({ maxLength: 1400, pattern: '^[A-Za-z0-9+/]*={0,2}$', description: 'Base64 of the UTF-8 password' }),
          tenantCode: TenantCode,
          verifyModel: Type.Optional(VerifyModel),
        }),
        response: { 200: envelope(Type.Object({ loginInfo: LoginInfo })), ...failureReplies },
      },
    },
    async (request) => {
      const b = request.body;
      if (!login.ldapEnabled) throw new AppError(codes.ldapDisabled);
      const password = Buffer.from(b.password, 'base64').toString('utf8');
      // An empty password would be an unauthenticated bind that some directories accept: refuse it here.
      if (password.length === 0) {
        throw new InvalidRequest('body/password must NOT be empty');
      }
      const loginInfo = await login.ldapLogin({ account: b.account, password, tenantCode: b.tenantCode, verifyModel: b.verifyModel, clientIp: request.ip });
      return ok(request, { loginInfo });
    },
  );

  app.get(
    apiPaths.tenantSearch,
    {
      config: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Tenants an account exists in (the default tenant for an unknown account)',
        headers: languageHeaders,
        querystring: Type.Object({ account: Account }),
        response: { 200: envelope(Type.Array(TenantEntry)), ...failureReplies },
      },
    },
    async (request) => {
      let tenants = await account.tenantsOfAccount(request.query.account);
      if (tenants.length === 0) {
        const fallback = await account.defaultTenant();
        tenants = fallback ? [fallback] : [];
      }
      return ok(request, tenants.map((t) => account.tenantEntry(t, request.lang)));
    },
  );

  app.get(
    apiPaths.accountTenants,
    {
      onRequest: requireSession,
      schema: {
        tags: ['auth'],
        summary: 'Tenants of the signed-in account',
        headers: tokenHeaders,
        response: { 200: envelope(Type.Array(TenantEntry)), ...failureReplies },
      },
    },
    async (request) => {
      const tenants = await account.tenantsOfAccount(sessionOf(request).account);
      return ok(request, tenants.map((t) => account.tenantEntry(t, request.lang)));
    },
  );

  app.get(
    apiPaths.captchaImage,
    {
      config: rateLimit,
      schema: {
        tags: ['auth'],
        summary: 'A new image verification code for verifyKey (valid 2 minutes, one use); with audio=true, said aloud as well',
        headers: languageHeaders,
        querystring: Type.Object({
          verifyKey: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' }),
          audio: Type.Optional(Type.Literal('true', { description: 'the same code said in the language of the request, for people who cannot see the image' })),
        }),
        response: {
          200: envelope(
            Type.Object({
              verifyKey: Type.String(),
              image: Type.String({ description: 'data:image/png;base64,…' }),
              audio: Type.Optional(Type.String({ description: 'data:audio/wav;base64,… (only with audio=true)' })),
              expiresIn: Type.Integer(),
            }),
          ),
          ...failureReplies,
        },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return ok(request, await captcha.issue(request.query.verifyKey, request.query.audio === 'true' ? request.lang : undefined));
    },
  );

  app.post(
    apiPaths.logout,
    {
      onRequest: requireSession,
      schema: {
        tags: ['auth'],
        summary: "Sign out: revokes the session; a session of an identity provider's sign-in is answered where the browser ends the provider's session too",
        headers: tokenHeaders,
        response: {
          200: envelope(
            Type.Union([
              Type.Null({ description: 'A session of no identity provider, or of one that offers no logout' }),
              Type.Object({ providerLogoutUrl: Type.String({ description: "Where the browser goes next to end the provider's session (RP-initiated logout, CAS /logout)" }) }),
            ]),
          ),
          ...failureReplies,
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const providerLogoutUrl = deps.providerLogoutUrl ? await deps.providerLogoutUrl(session, request) : null;
      await login.logout(session, request.ip);
      return ok(request, providerLogoutUrl === null ? null : { providerLogoutUrl });
    },
  );
}

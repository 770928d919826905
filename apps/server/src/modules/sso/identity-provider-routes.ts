import { Type } from 'typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiPaths, codes, identityProviderKinds } from '@campus/contracts';
import type { SaveIdentityProviderRequest } from '@campus/contracts';
import { sessionOf } from '../../http/auth-hook.ts';
import { AppError, envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { publicOrigin } from '../../http/public-origin.ts';
import type { App } from '../../http/types.ts';
import type { AccountService } from '../account/account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { providerLimits } from './identity-providers.ts';
import type { IdentityProviderStore } from './identity-providers.ts';
import type { SsoService } from './sso-service.ts';

export interface IdentityProviderRouteDeps {
  store: IdentityProviderStore;
  sso: SsoService;
  account: AccountService;
  logs: OperationLogService;
  requireSession: onRequestHookHandler;
  publicUrl: string;
}

const printable = '^[^\\u0000-\\u001f\\u007f]*$';
export const ProviderId = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$', description: 'The identity provider' });
const Kind = Type.Union(identityProviderKinds.map((kind) => Type.Literal(kind)));
const text = (maxLength: number, description?: string) => Type.String({ maxLength, pattern: printable, ...(description ? { description } : {}) });
const Name = Type.Object(
  { 'en-US': text(providerLimits.name * 2), 'zh-CN': text(providerLimits.name * 2), 'zh-MO': text(providerLimits.name * 2) },
  { description: 'The "Sign in with …" name in the three languages, none empty' },
);
const OidcSettings = {
  discoveryUrl: text(providerLimits.url, 'https://…/.well-known/openid-configuration (http only on loopback)'),
  clientId: text(providerLimits.clientId),
  scopes: text(providerLimits.scopes, 'Space-separated; openid is always asked for'),
  accountClaim: text(providerLimits.claim, 'The ID token claim that names the account: preferred_username, email or another'),
};
const CasSettings = Type.Object({
  serverUrl: text(providerLimits.url, 'The CAS base URL, https://cas.example.edu/cas (http only on loopback)'),
  accountAttribute: text(providerLimits.claim, "The attribute that names the account; '' for the CAS user"),
});
const SaveBody = Type.Object({
  id: Type.Optional(ProviderId),
  kind: Kind,
  name: Name,
  enabled: Type.Boolean(),
  oidc: Type.Optional(Type.Object({ ...OidcSettings, clientSecret: Type.Optional(text(providerLimits.clientSecret, 'Omitted: the stored secret is kept; empty: none')) })),
  cas: Type.Optional(CasSettings),
});
const View = Type.Object({
  id: Type.String(),
  tenantCode: Type.String(),
  kind: Kind,
  name: Type.Object({ 'en-US': Type.String(), 'zh-CN': Type.String(), 'zh-MO': Type.String() }),
  enabled: Type.Boolean(),
  oidc: Type.Union([Type.Object({ ...OidcSettings, hasClientSecret: Type.Boolean({ description: 'The secret itself is never answered' }) }), Type.Null()]),
  cas: Type.Union([CasSettings, Type.Null()]),
  callbackUrl: Type.String({ description: 'To register at the provider: redirect URI (OIDC) or service (CAS)' }),
  backchannelLogoutUrl: Type.String({ description: "OIDC: the back-channel logout URI to register; '' for CAS" }),
  updatedAt: Type.Integer(),
});
const TestResult = Type.Object({
  ok: Type.Boolean(),
  steps: Type.Array(Type.Object({ step: Type.Union(['discovery', 'keys', 'clock', 'validation'].map((step) => Type.Literal(step))), ok: Type.Boolean(), detail: Type.String() })),
  clockSkewSeconds: Type.Union([Type.Number(), Type.Null()]),
});

/**
 * A tenant's identity providers (issue 49, docs/sso.md), kept by a system administrator of that tenant, for that
 * tenant only: another tenant's provider is not found. Secrets are never answered; changes are logged.
 */
export function registerIdentityProviderRoutes(app: App, deps: IdentityProviderRouteDeps) {
  const { store, sso, account, logs, requireSession } = deps;
  const requireAdmin = async (request: FastifyRequest) => {
    if (!(await account.isSystemAdmin(sessionOf(request).userId))) throw new AppError(codes.noPermission, { status: 403 });
  };
  const adminOnly = { onRequest: [requireSession, requireAdmin] };
  const log = (request: FastifyRequest, detail: string) => {
    const session = sessionOf(request);
    return logs.record({ tenantCode: session.tenantCode, account: session.account, action: 'identity-provider', result: 'success', clientIp: request.ip, detail });
  };

  app.get(
    apiPaths.identityProviderList,
    {
      ...adminOnly,
      schema: { tags: ['sso'], summary: "The tenant's identity providers (system administrators)", headers: tokenHeaders, response: { 200: envelope(Type.Array(View)), ...failureReplies } },
    },
    async (request) => {
      const origin = publicOrigin(request, deps.publicUrl);
      return ok(request, (await store.list(sessionOf(request).tenantCode)).map((row) => store.view(row, origin)));
    },
  );

  app.post(
    apiPaths.identityProviderSave,
    {
      ...adminOnly,
      schema: {
        tags: ['sso'],
        summary: 'Adds (no id) or changes an identity provider of the tenant; an omitted client secret keeps the stored one',
        headers: tokenHeaders,
        body: SaveBody,
        response: { 200: envelope(View), ...failureReplies },
      },
    },
    async (request) => {
      const row = await store.save(sessionOf(request).tenantCode, request.body as SaveIdentityProviderRequest);
      await log(request, `${request.body.id === undefined ? 'added' : 'changed'} ${row.id} (${row.kind}, ${Number(row.enabled) === 1 ? 'enabled' : 'disabled'})`);
      return ok(request, store.view(row, publicOrigin(request, deps.publicUrl)));
    },
  );

  app.post(
    apiPaths.identityProviderDelete,
    {
      ...adminOnly,
      schema: {
        tags: ['sso'],
        summary: 'Removes an identity provider of the tenant (the sessions it opened stay until they end)',
        headers: tokenHeaders,
        body: Type.Object({ id: ProviderId }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      const row = await store.ofTenant(sessionOf(request).tenantCode, request.body.id);
      if (!row) throw new AppError(codes.ssoProviderUnknown, { status: 404 });
      await store.remove(row.id);
      await log(request, `removed ${row.id} (${row.kind})`);
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.identityProviderTest,
    {
      ...adminOnly,
      schema: {
        tags: ['sso'],
        summary: "Tries a provider's settings before it is switched on (discovery, keys, clock; the CAS validation endpoint), with the stored secret when none is sent",
        headers: tokenHeaders,
        body: SaveBody,
        response: { 200: envelope(TestResult), ...failureReplies },
      },
    },
    async (request) => ok(request, await sso.test(sessionOf(request).tenantCode, request.body as SaveIdentityProviderRequest, request.lang)),
  );
}

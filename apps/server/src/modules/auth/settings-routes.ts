import { Type } from 'typebox';
import { apiPaths, defaultSkin, isGateSystem, isSkinCode, ossObjectUrl, shellVersion, skinCodes } from '@campus/contracts';
import type { IdentityProviderButton, LanguageCode, RuntimeLoginSettings, TenantSettings } from '@campus/contracts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, languageHeaders, ok } from '../../http/envelope.ts';
import { pickLocalised } from '../../lib/localised.ts';
import type { AccountService } from '../account/account-service.ts';

const url = (id: string | null | undefined) => (id ? ossObjectUrl(id) : '');

const TenantSettingsSchema = Type.Object({
  imgVerifyCode: Type.Boolean(),
  openLdap: Type.Boolean(),
  mjSystem: Type.Integer(),
  cardLogin: Type.Boolean(),
  logoUrl: Type.String(),
  code: Type.String(),
  headerLogo: Type.String(),
  loginBg: Type.String(),
  loginLogo: Type.String(),
  isPrivateDeployment: Type.Boolean(),
  systemName: Type.String(),
  systemLogo: Type.String(),
  skin: Type.Union(skinCodes.map((c) => Type.Literal(c)), { description: 'Main-layout colour scheme of the tenant' }),
  opsPlatformUrl: Type.String({ description: "Operations management platform address (OPS_PLATFORM_URL); '' when none" }),
  cardIssuerUrl: Type.String({ description: 'The local card issuer the browser calls on gate deployments (CARD_ISSUER_URL)' }),
  identityProviders: Type.Array(
    Type.Object({ id: Type.String(), kind: Type.Union([Type.Literal('oidc'), Type.Literal('cas')]), name: Type.String() }),
    { description: "The tenant's enabled identity providers: one 'Sign in with …' button each (issue 49)" },
  ),
});

const RuntimeSchema = Type.Object({
  IsPrivateDeployment: Type.Boolean(),
  OpenImageVerifyCode: Type.Boolean(),
  CardLogin: Type.Boolean(),
  MJSystem: Type.Integer(),
  OpenLdap: Type.Boolean(),
  IsOEM: Type.Boolean(),
});

const guidQuery = Type.Object({ guid: Type.Optional(Type.String({ maxLength: 64 })) });
const settingsHeaders = Type.Object({
  language: Type.Optional(Type.String({ maxLength: 16 })),
  tenantcode: Type.Optional(Type.String({ maxLength: 32, description: 'Tenant whose settings to read (default: the lowest code)' })),
});

/** The enabled identity providers of a tenant, named in a language (the sso area's, handed over by app.ts). */
export type IdentityProviderButtons = (tenantCode: string, language: LanguageCode) => Promise<IdentityProviderButton[]>;

/** Public settings the login page needs: built from the configuration and the tenant's row. */
export function registerSettingsRoutes(app: App, config: Config, account: AccountService, identityProviders: IdentityProviderButtons = async () => []) {
  const tenantOf = (request: FastifyRequest) => {
    const header = request.headers.tenantcode;
    return account.tenantOrDefault(typeof header === 'string' ? header : undefined);
  };

  const tenantSettings = async (request: FastifyRequest): Promise<TenantSettings> => {
    const tenant = await tenantOf(request);
    return {
      imgVerifyCode: config.imageCode,
      openLdap: config.ldap !== null,
      mjSystem: config.mjSystem,
      cardLogin: isGateSystem(config.mjSystem),
      logoUrl: url(tenant?.header_logo_id),
      code: tenant?.code ?? '',
      headerLogo: url(tenant?.header_logo_id),
      loginBg: url(tenant?.login_bg_id),
      loginLogo: url(tenant?.login_logo_id),
      isPrivateDeployment: config.privateDeployment,
      systemName: tenant ? pickLocalised(tenant.system_name_i18n, request.lang) : '',
      systemLogo: url(tenant?.system_logo_id),
      skin: isSkinCode(tenant?.skin) ? tenant.skin : defaultSkin,
      opsPlatformUrl: config.opsPlatformUrl,
      cardIssuerUrl: config.cardIssuerUrl,
      identityProviders: tenant ? await identityProviders(tenant.code, request.lang) : [],
    };
  };

  app.get(
    apiPaths.runtimeLoginSettings,
    { schema: { tags: ['settings'], summary: 'Runtime login settings', headers: languageHeaders, response: { 200: envelope(RuntimeSchema), ...failureReplies } } },
    async (request) => {
      const data: RuntimeLoginSettings = {
        IsPrivateDeployment: config.privateDeployment,
        OpenImageVerifyCode: config.imageCode,
        CardLogin: isGateSystem(config.mjSystem),
        MJSystem: config.mjSystem,
        OpenLdap: config.ldap !== null,
        IsOEM: false,
      };
      return ok(request, data);
    },
  );

  app.get(
    apiPaths.tenantSettings,
    {
      schema: { tags: ['settings'], summary: 'Tenant settings for the login page', headers: settingsHeaders, querystring: guidQuery, response: { 200: envelope(TenantSettingsSchema), ...failureReplies } },
    },
    async (request) => ok(request, await tenantSettings(request)),
  );

  app.get(
    apiPaths.versionCheck,
    {
      schema: {
        tags: ['settings'],
        summary: 'Version / device check: the system type and the shell version',
        headers: languageHeaders,
        querystring: guidQuery,
        response: { 200: envelope(Type.Object({ mjSystem: Type.Integer(), version: Type.String() })), ...failureReplies },
      },
    },
    async (request) => ok(request, { mjSystem: config.mjSystem, version: shellVersion }),
  );

  app.get(
    apiPaths.loginLogo,
    { schema: { tags: ['settings'], summary: 'Login page logo', headers: settingsHeaders, response: { 200: envelope(Type.Object({ url: Type.String() })), ...failureReplies } } },
    async (request) => {
      const tenant = await tenantOf(request);
      return ok(request, { url: url(tenant?.login_logo_id) });
    },
  );
}

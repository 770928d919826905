import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, isGateSystem, languageCodes, managementCardKind, ossObjectUrl } from '@campus/contracts';
import type { LanguageEntry, SysKeyParamData } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, languageHeaders, ok, sendShared, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import { pickLocalised } from '../../lib/localised.ts';
import type { AccountService } from '../account/account-service.ts';
import type { MenuService } from './menu-service.ts';

const MenuSystemSchema = Type.Object({
  id: Type.String(),
  appNo: Type.String(),
  appId: Type.String(),
  frontRoutingAddr: Type.String(),
  label: Type.String(),
  sortNum: Type.Integer(),
});
const MenuPageSchema = Type.Object({
  id: Type.String(),
  path: Type.String(),
  name: Type.String(),
  title: Type.String(),
  sortNum: Type.Integer(),
  isFuncRight: Type.Boolean(),
  funcRightPerms: Type.Array(Type.String()),
  meta: Type.Object({
    appNo: Type.String(),
    parentId: Type.Union([Type.String(), Type.Null()]),
    isSide: Type.Boolean(),
    icon: Type.Optional(Type.String()),
    frameUrl: Type.Optional(Type.String({ description: 'Report pages: the backend page path the shell shows in a frame' })),
  }),
});

export const languageList: LanguageEntry[] = [
  { code: 'zh-CN', text: '简体中文' },
  { code: 'zh-MO', text: '繁體中文' },
  { code: 'en-US', text: 'English' },
];

export interface MenuRouteDeps {
  menu: MenuService;
  account: AccountService;
  mjSystem: number;
  /** The gate installation's system key id, '' before initialisation (the gm-account area answers). */
  gateKeyId: () => Promise<string>;
  requireSession: onRequestHookHandler;
}

export function registerMenuRoutes(app: App, deps: MenuRouteDeps) {
  const { menu, account, requireSession } = deps;

  app.get(
    apiPaths.menus,
    {
      onRequest: requireSession,
      schema: {
        tags: ['menu'],
        summary: "Systems of the user's permission list and their pages, in the request language",
        headers: tokenHeaders,
        response: { 200: envelope(Type.Object({ menuBaseList: Type.Array(MenuSystemSchema), menuList: Type.Array(MenuPageSchema) })), ...failureReplies },
      },
    },
    async (request, reply) => sendShared(request, reply, await menu.menus(sessionOf(request), request.lang)),
  );

  app.get(
    apiPaths.permissions,
    {
      onRequest: requireSession,
      schema: {
        tags: ['menu'],
        summary: 'Per system: the function codes the user holds',
        headers: tokenHeaders,
        response: { 200: envelope(Type.Array(Type.Object({ appCode: Type.String(), ids: Type.Array(Type.String()) }))), ...failureReplies },
      },
    },
    async (request) => ok(request, await menu.permissions(sessionOf(request))),
  );

  app.get(
    apiPaths.languages,
    {
      schema: {
        tags: ['menu'],
        summary: 'Interface languages',
        headers: languageHeaders,
        response: { 200: envelope(Type.Array(Type.Object({ code: Type.Union(languageCodes.map((c) => Type.Literal(c))), text: Type.String() }))), ...failureReplies },
      },
    },
    async (request) => ok(request, languageList),
  );

  app.get(
    apiPaths.systemLogos,
    {
      schema: {
        tags: ['menu'],
        summary: "The tenant's system logo and name (tenantCode header, else the default tenant)",
        headers: Type.Object({ language: Type.Optional(Type.String({ maxLength: 16 })), tenantcode: Type.Optional(Type.String({ maxLength: 32 })) }),
        response: { 200: envelope(Type.Array(Type.Object({ code: Type.String(), systemLogo: Type.String(), systemName: Type.String() }))), ...failureReplies },
      },
    },
    async (request) => {
      const header = request.headers.tenantcode;
      const tenant = await account.tenantOrDefault(typeof header === 'string' ? header : undefined);
      const list = tenant
        ? [{ code: tenant.code, systemLogo: tenant.system_logo_id ? ossObjectUrl(tenant.system_logo_id) : '', systemName: pickLocalised(tenant.system_name_i18n, request.lang) }]
        : [];
      return ok(request, list);
    },
  );

  app.get(
    apiPaths.sysKeyParam,
    {
      onRequest: requireSession,
      schema: {
        tags: ['menu'],
        summary: 'System key parameters (system type, national-crypto mode)',
        headers: tokenHeaders,
        response: {
          200: envelope(
            Type.Object({ mjSystem: Type.Integer(), isNationalCrypto: Type.Boolean(), sysKeyData: Type.Union([Type.String(), Type.Null()]), keyId: Type.String(), cardKind: Type.Integer() }),
          ),
          ...failureReplies,
        },
      },
    },
    async (request) => {
      const gate = isGateSystem(deps.mjSystem);
      const data: SysKeyParamData = { mjSystem: deps.mjSystem, isNationalCrypto: gate, sysKeyData: null, keyId: gate ? await deps.gateKeyId() : '', cardKind: managementCardKind };
      return ok(request, data);
    },
  );
}

import type { onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { apiPaths, codes, languageCodes } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { AccountService } from './account-service.ts';

const UserInfoSchema = Type.Object({
  id: Type.String(),
  code: Type.String(),
  isFirstLogin: Type.Boolean(),
  name: Type.String(),
  loginTime: Type.Integer(),
  oprtPwdEditReason: Type.Union([Type.Integer(), Type.Null()]),
  lockingTime: Type.Union([Type.Integer(), Type.Null()]),
  isSystemAdmin: Type.Boolean(),
  tenantCode: Type.String(),
  tenantName: Type.String(),
  loginType: Type.Integer(),
});

const UserSettingsSchema = Type.Object({
  language: Type.Union(languageCodes.map((c) => Type.Literal(c))),
  timeZone: Type.Object({ utcDiff: Type.Integer({ description: 'Minutes east of UTC, e.g. 480' }) }),
});

export function registerAccountRoutes(app: App, account: AccountService, requireSession: onRequestHookHandler) {
  app.get(
    apiPaths.userDetail,
    {
      onRequest: requireSession,
      schema: { tags: ['account'], summary: 'The signed-in user', headers: tokenHeaders, response: { 200: envelope(UserInfoSchema), ...failureReplies } },
    },
    async (request) => {
      const info = await account.userInfo(sessionOf(request), request.lang);
      if (!info) throw new AppError(codes.tokenInvalid, 401);
      return ok(request, info);
    },
  );

  app.get(
    apiPaths.userSettings,
    {
      onRequest: requireSession,
      schema: { tags: ['account'], summary: "The user's language and time zone", headers: tokenHeaders, response: { 200: envelope(UserSettingsSchema), ...failureReplies } },
    },
    async (request) => {
      const settings = await account.userSettings(sessionOf(request).userId);
      if (!settings) throw new AppError(codes.tokenInvalid, 401);
      return ok(request, settings);
    },
  );

  app.get(
    apiPaths.passwordComplexity,
    {
      schema: {
        tags: ['account'],
        summary: 'Password policy: base64 of a JavaScript regular expression source and a localised tip',
        headers: languageHeaders,
        response: { 200: envelope(Type.Object({ regex: Type.String(), tip: Type.String() })), ...failureReplies },
      },
    },
    async (request) => ok(request, account.passwordComplexity(request.lang)),
  );
}

import type { onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { apiPaths, codes, languageCodes, passwordDigestPattern } from '@campus/contracts';
import type { ChangePasswordRequest, SaveUserSettingsRequest } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { AppError, envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { PasswordSealService } from '../password-seal/password-seal-service.ts';
import type { AccountService } from './account-service.ts';
import type { PasswordChangeService } from './password-change-service.ts';

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
  cardId: Type.Union([Type.String(), Type.Null()], { description: 'The administrator login card of a card sign-in' }),
  mayManageCards: Type.Boolean({ description: 'A system administrator of a gate deployment: the card management tables take his token' }),
});

const LanguageSchema = Type.Union(languageCodes.map((c) => Type.Literal(c)));

const UserSettingsSchema = Type.Object({
  language: LanguageSchema,
  timeZone: Type.Object({ utcDiff: Type.Integer({ description: 'Minutes east of UTC, e.g. 480' }) }),
});

const SaveUserSettingsBody = Type.Object({ language: LanguageSchema });

const Digest = (what: string) =>
  Type.String({ pattern: passwordDigestPattern, description: `Lowercase hex SHA-256 (SM3 in national-crypto mode) of the UTF-8 ${what}` });

const ChangePasswordBody = Type.Object({
  oprtPwd: Digest('current password'),
  oprtNewPwd: Digest('new password'),
  sealedNewPwd: Type.String({
    minLength: 1,
    maxLength: 4096,
    pattern: '^[0-9a-fA-F]*$',
    description: "The new password as UTF-8, SM2-encrypted to sealKey of GetLoginPassordComplexity: sm-crypto-v2 `sm2.doEncrypt(password, sealKey, 1)`, i.e. hex of C1 (x‖y, no 04 prefix) ‖ C3 (SM3) ‖ C2",
  }),
});

const PasswordComplexitySchema = Type.Object({
  regex: Type.String({ description: 'Base64 of a JavaScript regular expression source' }),
  tip: Type.String(),
  sealKey: Type.String({ description: 'SM2 public key (uncompressed hex, 04…) to seal a new password to' }),
});

export interface AccountRouteDeps {
  account: AccountService;
  passwordChange: PasswordChangeService;
  seal: PasswordSealService;
  requireSession: onRequestHookHandler;
  rateLimitPerMinute: number;
  /** A gate deployment (system type 21 to 29): its system administrators manage the cards. */
  isGate: boolean;
}

export function registerAccountRoutes(app: App, deps: AccountRouteDeps) {
  const { account, passwordChange, seal, requireSession } = deps;
  app.get(
    apiPaths.userDetail,
    {
      onRequest: requireSession,
      schema: { tags: ['account'], summary: 'The signed-in user', headers: tokenHeaders, response: { 200: envelope(UserInfoSchema), ...failureReplies } },
    },
    async (request) => {
      const info = await account.userInfo(sessionOf(request), request.lang);
      if (!info) throw new AppError(codes.tokenInvalid, { status: 401 });
      // the card routes' own rule (card-manager-hook): a system administrator, on a gate deployment
      return ok(request, { ...info, mayManageCards: deps.isGate && info.isSystemAdmin });
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
      if (!settings) throw new AppError(codes.tokenInvalid, { status: 401 });
      return ok(request, settings);
    },
  );

  app.post(
    apiPaths.saveUserSettings,
    {
      onRequest: requireSession,
      schema: {
        tags: ['account'],
        summary: "Keeps the language the user chose in the shell as the user's setting",
        description: 'GetUserSetParam answers it from then on, so the choice follows the user to the next sign-in and to other browsers.',
        headers: tokenHeaders,
        body: SaveUserSettingsBody,
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      const body: SaveUserSettingsRequest = request.body;
      if (!(await account.setLanguage(sessionOf(request).userId, body.language))) throw new AppError(codes.tokenInvalid, { status: 401 });
      return ok(request, null);
    },
  );

  app.get(
    apiPaths.passwordComplexity,
    {
      schema: {
        tags: ['account'],
        summary: 'Password policy (base64 of a JavaScript regular expression source, a localised tip) and the key that seals a new password',
        headers: languageHeaders,
        response: { 200: envelope(PasswordComplexitySchema), ...failureReplies },
      },
    },
    async (request) => ok(request, account.passwordComplexity(request.lang, await seal.sealKey())),
  );

  app.post(
    apiPaths.changePassword,
    {
      onRequest: requireSession,
      config: { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['account'],
        summary: "Changes the caller's password; success ends every session of the user (sign in again)",
        description:
          'POST so that digests never sit in a query string. Failures: 153 wrong current password (counted like failed sign-ins; 112 once the account locks), 151 policy, 152 same as the current password, HTTP 400 for a seal that does not open or does not hold the password oprtNewPwd is the digest of.',
        headers: tokenHeaders,
        body: ChangePasswordBody,
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      const body: ChangePasswordRequest = request.body; // the schema and the shared contract agree
      const { oprtPwd, oprtNewPwd, sealedNewPwd } = body;
      await passwordChange.change({ session: sessionOf(request), oprtPwd, oprtNewPwd, sealedNewPwd, clientIp: request.ip, language: request.lang });
      return ok(request, null);
    },
  );
}

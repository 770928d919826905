import { Type } from 'typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiPaths, cardLoginModes, codes, managementCardKind } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { CardImage, CardWriteConfirmBody, Digest, FixedNo, PrepareId, PreparedCardWrite, PreparedCardWriteReply, SealedPassword, gateOnly } from '../card-primitives/card-schemas.ts';
import type { AdminLoginCardService } from './admin-login-card-service.ts';
import type { AccountService } from '../account/account-service.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import { cardLoginSetting, setCardLoginMode } from './card-login-setting.ts';

export interface AdminLoginCardRouteDeps {
  cards: AdminLoginCardService;
  account: AccountService;
  logs: OperationLogService;
  isGate: boolean;
  requireMasterCard: onRequestHookHandler;
  requireSession: onRequestHookHandler;
  rateLimitPerMinute: number;
}

const SuperAdminSchema = Type.Object({ no: Type.String(), name: Type.String(), id: Type.String(), tenantCode: Type.String() });
const CardSummary = Type.Object({ id: Type.String(), fixedNo: Type.String(), cardNum: Type.Integer(), state: Type.Integer(), issueSeq: Type.Integer() });

/** Administrator login card calls: the super administrator's card, card sign-in, the card password. */
export function registerAdminLoginCardRoutes(app: App, deps: AdminLoginCardRouteDeps) {
  const { cards } = deps;
  const gate = gateOnly(deps.isGate);
  const masterCard = [gate, deps.requireMasterCard];
  const signedIn = [gate, deps.requireSession];
  const rateLimit = { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: 60_000 } };
  const tags = ['administrator login card'];

  app.post(
    apiPaths.getSuperAdmin,
    { onRequest: masterCard, schema: { tags, summary: 'The account the super administrator card signs in (master-card token)', headers: tokenHeaders, response: { 200: envelope(SuperAdminSchema), ...failureReplies } } },
    async (request) => ok(request, await cards.superAdmin()),
  );
  app.post(
    apiPaths.getSuperAdminIssueData,
    {
      onRequest: masterCard,
      schema: {
        tags,
        summary: 'The super administrator and his login cards (master-card token)',
        headers: tokenHeaders,
        response: { 200: envelope(Type.Object({ ...SuperAdminSchema.properties, cardKind: Type.Integer(), cards: Type.Array(CardSummary) })), ...failureReplies },
      },
    },
    async (request) => ok(request, await cards.superAdminIssueData()),
  );
  app.post(
    apiPaths.issueSuperAdmin,
    {
      onRequest: masterCard,
      schema: {
        tags,
        summary: 'Issuing the super administrator card, phase one: the image for the blank card and the card password',
        headers: tokenHeaders,
        body: Type.Object({ fixedNo: FixedNo, oprtPwd: Digest, sealedPwd: SealedPassword }),
        response: { 200: PreparedCardWriteReply, ...failureReplies },
      },
    },
    async (request) => ok(request, await cards.prepareSuperAdmin(request.body, request.lang)),
  );
  app.post(
    apiPaths.gmSetIssueSuperAdminCard,
    { onRequest: masterCard, schema: { tags, summary: 'Issuing the super administrator card, phase two', headers: tokenHeaders, body: CardWriteConfirmBody, response: { 200: envelope(Type.Null()), ...failureReplies } } },
    async (request) => {
      await cards.confirmSuperAdmin(request.body, request.ip);
      return ok(request, null);
    },
  );
  const CardLoginMode = Type.Union(cardLoginModes.map((mode) => Type.Literal(mode)), {
    description: "'card-and-password' (the default): the administrator card with its card password; 'card-alone': the card alone signs in",
  });
  app.post(
    apiPaths.cardLoginSetting,
    {
      onRequest: gate,
      schema: {
        tags,
        summary: "Card sign-in settings: the tenant's (the tenantcode header's, else the lowest code's)",
        headers: Type.Object({ ...languageHeaders.properties, tenantcode: Type.Optional(Type.String({ maxLength: 32 })) }),
        response: { 200: envelope(Type.Object({ cardLogin: Type.Boolean(), cardKind: Type.Integer(), cardLoginMode: CardLoginMode })), ...failureReplies },
      },
    },
    async (request) => ok(request, await cardLoginSetting(deps.account, request.headers.tenantcode)),
  );
  const requireSystemAdmin = async (request: FastifyRequest) => {
    if (!(await deps.account.isSystemAdmin(sessionOf(request).userId))) throw new AppError(codes.noPermission, { status: 403 });
  };
  app.post(
    apiPaths.setCardLoginSetting,
    {
      onRequest: [...signedIn, requireSystemAdmin],
      schema: {
        tags,
        summary: "The tenant's system administrators: how the tenant's administrators sign in with their card (written in the tenant's log)",
        headers: tokenHeaders,
        body: Type.Object({ cardLoginMode: CardLoginMode }, { additionalProperties: false }),
        response: { 200: envelope(Type.Null()), ...failureReplies },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      await setCardLoginMode(deps, { tenantCode: session.tenantCode, account: session.account, clientIp: request.ip }, request.body.cardLoginMode);
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.cardLogin,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'Card sign-in (login type 3): the administrator card as the card issuer read it, with or without the card password',
        headers: languageHeaders,
        body: Type.Object({
          cardKind: Type.Literal(managementCardKind),
          fixedNo: FixedNo,
          image: CardImage,
          oprtNo: Type.Optional(Type.String({ maxLength: 64 })),
          oprtPwd: Type.Optional(Digest),
          tenantCode: Type.Optional(Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]*$' })),
        }),
        response: { 200: envelope(Type.Object({ token: Type.String(), tenantCode: Type.String() })), ...failureReplies },
      },
    },
    async (request) => ok(request, await cards.cardLogin(request.body, request.ip)),
  );

  app.post(
    apiPaths.verifyGmPassword,
    { onRequest: signedIn, schema: { tags, summary: 'Checks the card password of a card-login administrator', headers: tokenHeaders, body: Type.Object({ oprtPwd: Digest }), response: { 200: envelope(Type.Null()), ...failureReplies } } },
    async (request) => {
      await cards.verifyPassword(sessionOf(request), request.body.oprtPwd, request.ip);
      return ok(request, null);
    },
  );
  app.post(
    apiPaths.changeGmPassword,
    {
      onRequest: signedIn,
      schema: {
        tags,
        summary: 'The card password change: phase one (the new image) without isSuccess, phase two with {prepareId, isSuccess}',
        headers: tokenHeaders,
        body: Type.Union([
          Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), kindNum: Type.Literal(managementCardKind), fixedNo: FixedNo, oprtPwd: Digest, sealedPwd: SealedPassword, oprtOldPwd: Digest }, { additionalProperties: false }),
          Type.Object({ prepareId: PrepareId, isSuccess: Type.Boolean() }, { additionalProperties: false }),
        ]),
        response: { 200: envelope(Type.Union([PreparedCardWrite, Type.Null()])), ...failureReplies },
      },
    },
    async (request) => {
      const body = request.body;
      if ('prepareId' in body) {
        await cards.confirmChangePassword(sessionOf(request), body, request.ip);
        return ok(request, null);
      }
      return ok(request, await cards.prepareChangePassword(sessionOf(request), body, request.lang, request.ip));
    },
  );
}

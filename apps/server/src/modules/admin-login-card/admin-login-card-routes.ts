import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import { sessionOf } from '../../http/auth-hook.ts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import { CardImage, CardWriteConfirmBody, Digest, FixedNo, PrepareId, PreparedCardWrite, PreparedCardWriteReply, SealedPassword, gateOnly } from '../card-primitives/card-schemas.ts';
import type { AdminLoginCardService } from './admin-login-card-service.ts';

export interface AdminLoginCardRouteDeps {
  cards: AdminLoginCardService;
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
  app.post(
    apiPaths.cardLoginSetting,
    { onRequest: gate, schema: { tags, summary: 'Card sign-in settings', headers: languageHeaders, response: { 200: envelope(Type.Object({ cardLogin: Type.Boolean(), cardKind: Type.Integer() })), ...failureReplies } } },
    async (request) => ok(request, { cardLogin: true, cardKind: 11 }),
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
          cardKind: Type.Literal(11),
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
          Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), kindNum: Type.Literal(11), fixedNo: FixedNo, oprtPwd: Digest, sealedPwd: SealedPassword, oprtOldPwd: Digest }, { additionalProperties: false }),
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

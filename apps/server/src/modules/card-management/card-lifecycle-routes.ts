import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import type { AdminCardLifecycle } from '../admin-login-card/admin-card-lifecycle.ts';
import type { KeyCardLifecycle } from '../system-key-card/key-card-lifecycle.ts';
import { cardActorOf } from '../card-primitives/card-manager-hook.ts';
import { CardImage, CardWriteConfirmBody, Digest, FixedNo, GateSetupStateSchema, PrepareId, PreparedCardWriteReply, SealedPassword, gateOnly } from '../card-primitives/card-schemas.ts';

export interface CardLifecycleRouteDeps {
  adminCards: AdminCardLifecycle;
  keyCards: KeyCardLifecycle;
  isGate: boolean;
  requireCardManager: onRequestHookHandler;
}

const CardId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const RecycleData = envelope(Type.Object({ prepareId: Type.String(), id: Type.String(), fixedNo: Type.String(), cardKind: Type.Integer() }));
const RecycleConfirm = Type.Object({ id: CardId, prepareId: PrepareId, isSuccess: Type.Boolean({ description: 'Whether the card issuer blanked the card' }) }, { additionalProperties: false });
const done = { 200: envelope(Type.Null()), ...failureReplies };

/** The lifecycle paths (the route walk of the tests knows them as card management). */
export const cardLifecyclePaths: readonly string[] = [
  apiPaths.operatorIsCanIssueCard, apiPaths.adminCardGetIssueData, apiPaths.adminCardIssue, apiPaths.adminCardRewrite, apiPaths.adminCardGetRecycleData, apiPaths.adminCardRecycle,
  apiPaths.keyCardGetRecycleData, apiPaths.keyCardRecycle, apiPaths.keyCardCheckCanRecovery, apiPaths.keyCardRecoverySystemKey,
];

/** Card management's two-phase calls: issue, rewrite and recycle of administrator cards; recycle and recovery of key cards. */
export function registerCardLifecycleRoutes(app: App, deps: CardLifecycleRouteDeps) {
  const onRequest = [gateOnly(deps.isGate), deps.requireCardManager];
  const tags = ['card management'];
  const { adminCards, keyCards } = deps;

  app.post(
    apiPaths.operatorIsCanIssueCard,
    { onRequest, schema: { tags, summary: 'Whether a system administrator of the tenant may get a login card now (holds none in use)', headers: tokenHeaders, body: Type.Object({ oprtId: CardId }), response: { 200: envelope(Type.Object({ canIssue: Type.Boolean() })), ...failureReplies } } },
    async (request) => ok(request, { canIssue: await adminCards.canIssue(cardActorOf(request), request.body.oprtId) }),
  );
  app.post(
    apiPaths.adminCardGetIssueData,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Issuing an administrator login card, phase one: the image for the blank card, with the card password',
        headers: tokenHeaders,
        body: Type.Object({ oprtId: CardId, fixedNo: FixedNo, oprtPwd: Digest, sealedPwd: SealedPassword }, { additionalProperties: false }),
        response: { 200: PreparedCardWriteReply, ...failureReplies },
      },
    },
    async (request) => ok(request, await adminCards.prepareIssue(cardActorOf(request), request.body, request.lang)),
  );
  app.post(
    apiPaths.adminCardRewrite,
    {
      onRequest,
      schema: { tags, summary: 'Writing a card in use again under a new issue number (its copies stop signing in), phase one', headers: tokenHeaders, body: Type.Object({ id: CardId, fixedNo: FixedNo }, { additionalProperties: false }), response: { 200: PreparedCardWriteReply, ...failureReplies } },
    },
    async (request) => ok(request, await adminCards.prepareRewrite(cardActorOf(request), request.body)),
  );
  app.post(
    apiPaths.adminCardIssue,
    { onRequest, schema: { tags, summary: 'Phase two of an issue or a rewrite: whether the card issuer wrote the prepared image', headers: tokenHeaders, body: CardWriteConfirmBody, response: done } },
    async (request) => {
      await adminCards.confirmWrite(cardActorOf(request), request.body, request.ip);
      return ok(request, null);
    },
  );
  app.post(
    apiPaths.adminCardGetRecycleData,
    { onRequest, schema: { tags, summary: 'Recycling an administrator login card (in use or frozen), phase one', headers: tokenHeaders, body: Type.Object({ id: CardId }), response: { 200: RecycleData, ...failureReplies } } },
    async (request) => ok(request, await adminCards.prepareRecycle(cardActorOf(request), request.body.id, request.lang)),
  );
  app.post(
    apiPaths.adminCardRecycle,
    { onRequest, schema: { tags, summary: 'Recycling, phase two: the card is recycled (30) and its card sessions end', headers: tokenHeaders, body: RecycleConfirm, response: done } },
    async (request) => {
      await adminCards.confirmRecycle(cardActorOf(request), request.body, request.ip);
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.keyCardGetRecycleData,
    { onRequest, schema: { tags, summary: 'Recycling a system key card (in use or frozen), phase one', headers: tokenHeaders, body: Type.Object({ id: CardId }), response: { 200: RecycleData, ...failureReplies } } },
    async (request) => ok(request, await keyCards.prepareRecycle(request.body.id, request.lang)),
  );
  app.post(
    apiPaths.keyCardRecycle,
    { onRequest, schema: { tags, summary: 'Recycling a system key card, phase two', headers: tokenHeaders, body: RecycleConfirm, response: done } },
    async (request) => {
      await keyCards.confirmRecycle(cardActorOf(request), request.body, request.ip);
      return ok(request, null);
    },
  );
  app.post(
    apiPaths.keyCardCheckCanRecovery,
    {
      onRequest,
      schema: { tags, summary: 'Whether this system key card can recover the system key (phase one of recovery)', headers: tokenHeaders, body: Type.Object({ fixedNo: FixedNo }), response: { 200: envelope(Type.Object({ canRecovery: Type.Boolean(), prepareId: Type.Union([Type.String(), Type.Null()]) })), ...failureReplies } },
    },
    async (request) => ok(request, await keyCards.checkRecovery(request.body.fixedNo)),
  );
  app.post(
    apiPaths.keyCardRecoverySystemKey,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Recovery, phase two: the key card as read and the customer password restore the server’s system key',
        headers: tokenHeaders,
        body: Type.Object(
          { prepareId: PrepareId, isSuccess: Type.Boolean({ description: 'Whether the card issuer read the key card' }), fixedNo: FixedNo, image: Type.Optional(CardImage), customerPwd: Type.Optional(Digest) },
          { additionalProperties: false },
        ),
        response: { 200: envelope(GateSetupStateSchema), ...failureReplies },
      },
    },
    async (request) => ok(request, await keyCards.confirmRecovery(cardActorOf(request), request.body, request.ip, request.lang)),
  );
}

import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { FixedNo, PreparedCardWriteReply, gateOnly } from '../card-primitives/card-schemas.ts';
import type { SystemKeyCardService } from './system-key-card-service.ts';

export interface SystemKeyCardRouteDeps {
  systemKeyCards: SystemKeyCardService;
  isGate: boolean;
  requireCardManager: onRequestHookHandler;
}

/** /qy/api/SystemKeyCard/ CheckCardCanIssue and Add: the set-up's key card, and a new one in card management. */
export function registerSystemKeyCardRoutes(app: App, deps: SystemKeyCardRouteDeps) {
  const { systemKeyCards } = deps;
  const onRequest = [gateOnly(deps.isGate), deps.requireCardManager];
  const tags = ['system key card'];

  app.post(
    apiPaths.systemKeyCardCheckCanIssue,
    {
      onRequest,
      schema: { tags, summary: 'Whether the card is new to the server (or recycled)', headers: tokenHeaders, body: Type.Object({ fixedNo: FixedNo }), response: { 200: envelope(Type.Object({ canIssue: Type.Boolean() })), ...failureReplies } },
    },
    async (request) => ok(request, { canIssue: await systemKeyCards.canIssue(request.body.fixedNo) }),
  );
  app.post(
    apiPaths.systemKeyCardAdd,
    {
      onRequest,
      schema: { tags, summary: 'Issuing a system key card, phase one: the image for the blank card (none other may be in use)', headers: tokenHeaders, body: Type.Object({ fixedNo: FixedNo }), response: { 200: PreparedCardWriteReply, ...failureReplies } },
    },
    async (request) => ok(request, await systemKeyCards.prepareIssue(request.body.fixedNo)),
  );
}

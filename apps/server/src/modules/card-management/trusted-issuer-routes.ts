import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import { gateOnly } from '../card-primitives/card-schemas.ts';
import { cardActorOf } from '../card-primitives/card-manager-hook.ts';
import type { TrustedIssuers } from '../gm-account/trusted-issuers.ts';

export interface TrustedIssuerRouteDeps {
  issuers: TrustedIssuers;
  isGate: boolean;
  /** A master-card token or a system administrator's session, as the key-card table. */
  requireCardManager: onRequestHookHandler;
}

/** The registry's calls (the route walk of the tests knows them as card management). */
export const trustedIssuerPaths: readonly string[] = [apiPaths.trustedIssuerList, apiPaths.trustedIssuerRevoke];

const DeviceId = Type.String({ pattern: '^[0-9A-F]{16}$', description: "The card issuer's device id (AddIdentity answers it)" });
const Stamp = Type.Integer({ description: 'Epoch milliseconds' });
const IssuerRow = Type.Object({
  deviceId: DeviceId,
  hostName: Type.String(),
  trustedBy: Type.String({ description: "'master-card' or 'key-card:<fixedNo>', of the last trust or renewal" }),
  clientIp: Type.String({ description: 'The address of the last trust or renewal' }),
  firstTrustedAt: Stamp,
  trustedAt: Stamp,
  expiresAt: Stamp,
  lastFetchAt: Stamp,
  lastFetchIp: Type.String(),
  state: Type.Union([Type.Literal('trusted'), Type.Literal('expired'), Type.Literal('revoked')]),
  revokedAt: Type.Union([Stamp, Type.Null()]),
  revokedBy: Type.Union([Type.String(), Type.Null()]),
});

/** The trusted card issuers beside the key-card table: the list, and revoking one (docs/cards.md "Trusted issuers"). */
export function registerTrustedIssuerRoutes(app: App, deps: TrustedIssuerRouteDeps) {
  const onRequest = [gateOnly(deps.isGate), deps.requireCardManager];
  const tags = ['card management'];
  app.post(
    apiPaths.trustedIssuerList,
    { onRequest, schema: { tags, summary: 'The trusted card issuers (operator PCs), the latest trust first', headers: tokenHeaders, response: { 200: envelope(Type.Array(IssuerRow)), ...failureReplies } } },
    async (request) => ok(request, await deps.issuers.list()),
  );
  app.post(
    apiPaths.trustedIssuerRevoke,
    {
      onRequest,
      schema: { tags, summary: 'Revokes a trusted card issuer for good: it gets no system key again (logged installation-wide)', headers: tokenHeaders, body: Type.Object({ deviceId: DeviceId }), response: { 200: envelope(Type.Null()), ...failureReplies } },
    },
    async (request) => {
      await deps.issuers.revoke(request.body.deviceId, cardActorOf(request), request.ip);
      return ok(request, null);
    },
  );
}

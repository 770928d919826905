import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths, managementCardKind } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, languageHeaders, ok, tokenHeaders } from '../../http/envelope.ts';
import {
  CardImage,
  CardWriteConfirmBody,
  CustomerNo,
  DevicePublicKey,
  Digest,
  FixedNo,
  GateSetupStateSchema,
  PrepareId,
  PreparedCardWriteReply,
  SignedKeyChallengeFields,
  gateOnly,
} from '../card-primitives/card-schemas.ts';
import type { SystemKeyCardService } from '../system-key-card/system-key-card-service.ts';
import type { KeyCardIssuerTrust } from '../system-key-card/key-card-issuer-trust.ts';
import { cardActorOf } from '../card-primitives/card-manager-hook.ts';
import type { GmAccountService } from '../gm-account/gm-account-service.ts';

export interface GmAccountRouteDeps {
  gm: GmAccountService;
  systemKeyCards: SystemKeyCardService;
  keyCardTrust: KeyCardIssuerTrust;
  requireMasterCard: onRequestHookHandler;
  /** A master-card token or a system administrator's session (card management, spec §6). */
  requireCardManager: onRequestHookHandler;
  rateLimitPerMinute: number;
}

const IsIssueReply = envelope(Type.Object({ isIssue: Type.Boolean() }));
const SysKeyDataReply = envelope(Type.Object({ sysKeyData: Type.String({ description: 'SM2 (C1C3C2, hex) of the system key and its key id, sealed to devicePublicKey' }) }));

/** GMAccount calls (system initialisation, the master card) and the system key for card issuers (SystemUsedCardKind). */
export function registerGmAccountRoutes(app: App, deps: GmAccountRouteDeps) {
  const { gm, systemKeyCards } = deps;
  const gate = gateOnly(gm.isGate);
  const rateLimit = { rateLimit: { max: deps.rateLimitPerMinute, timeWindow: 60_000 } };
  const tags = ['gate set-up'];

  app.post(
    apiPaths.gmIsSystemInit,
    { onRequest: gate, schema: { tags, summary: 'What the gate set-up has done (the entry checks of the card screens)', headers: languageHeaders, response: { 200: envelope(GateSetupStateSchema), ...failureReplies } } },
    async (request) => ok(request, await gm.state()),
  );
  app.post(
    apiPaths.gmIsIssueSecretCard,
    { onRequest: gate, schema: { tags, summary: 'Whether the system key card is issued', headers: languageHeaders, response: { 200: IsIssueReply, ...failureReplies } } },
    async (request) => ok(request, { isIssue: (await gm.state()).isIssueSecretCard }),
  );
  app.post(
    apiPaths.gmIsIssueSuperAdminCard,
    { onRequest: gate, schema: { tags, summary: "Whether the super administrator's login card is issued", headers: languageHeaders, response: { 200: IsIssueReply, ...failureReplies } } },
    async (request) => ok(request, { isIssue: (await gm.state()).isIssueSuperAdminCard }),
  );
  app.post(
    apiPaths.gmGetCardSector,
    {
      onRequest: gate,
      schema: { tags, summary: 'The card layout the server builds (docs/cards.md)', headers: languageHeaders, response: { 200: envelope(Type.Object({ layoutVersion: Type.Integer(), imageSize: Type.Integer(), cardKind: Type.Integer() })), ...failureReplies } },
    },
    async (request) => ok(request, { layoutVersion: 1, imageSize: 256, cardKind: managementCardKind }),
  );

  app.post(
    apiPaths.addGmInitData,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'System initialisation, phase one: a new system key sealed onto the mother card (until initialised)',
        headers: languageHeaders,
        body: Type.Object({ customerNo: CustomerNo, customerPwd: Digest, fixedNo: FixedNo, image: CardImage }),
        response: { 200: PreparedCardWriteReply, ...failureReplies },
      },
    },
    async (request) => ok(request, await gm.prepareInit(request.body, request.ip)),
  );
  app.post(
    apiPaths.gmSetSystemInit,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'System initialisation, phase two: the mother card read back after the write',
        headers: languageHeaders,
        body: Type.Object({ prepareId: PrepareId, isSuccess: Type.Boolean(), image: Type.Optional(CardImage) }),
        response: { 200: envelope(GateSetupStateSchema), ...failureReplies },
      },
    },
    async (request) => ok(request, await gm.confirmInit(request.body, request.ip)),
  );
  app.post(
    apiPaths.gmMasterCardVerify,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'Checks the swiped mother card and answers a master-card token (15 minutes) for the card issuer that read it',
        headers: languageHeaders,
        body: Type.Object({
          sysKeyCode: Type.String({ pattern: '^[0-9a-fA-F]{32}$' }),
          customerNo: CustomerNo,
          customerPwd: Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: "The mother card's proof as ReadMasterCard answers it" }),
          customerPwdDigest: Type.Optional(Digest),
          devicePublicKey: DevicePublicKey,
        }),
        response: { 200: envelope(Type.Object({ token: Type.String(), expiresIn: Type.Integer() })), ...failureReplies },
      },
    },
    async (request) => ok(request, await gm.verifyMasterCard(request.body, request.ip)),
  );
  app.post(
    apiPaths.gmSetIssueSecretCard,
    {
      onRequest: [gate, deps.requireCardManager],
      schema: { tags, summary: 'Issuing a system key card, phase two (master-card token or a system administrator)', headers: tokenHeaders, body: CardWriteConfirmBody, response: { 200: envelope(Type.Null()), ...failureReplies } },
    },
    async (request) => {
      await systemKeyCards.confirmIssue(cardActorOf(request), request.body, request.ip);
      return ok(request, null);
    },
  );

  app.post(
    apiPaths.getSysKeyChallenge,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'A one-time challenge (a minute) the card issuer signs for GetSysKeyData or GetGMSysKeyData; limited per issuer and per address',
        headers: languageHeaders,
        body: Type.Object({ devicePublicKey: DevicePublicKey }),
        response: { 200: envelope(Type.Object({ challenge: Type.String(), expiresIn: Type.Integer() })), ...failureReplies },
      },
    },
    async (request) => ok(request, await gm.keyChallenge(request.body.devicePublicKey, request.ip)),
  );
  app.post(
    apiPaths.getSysKeyData,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'The system key sealed to a card issuer whose trust is in effect and that signed its challenge; a master-card token (set-up unfinished) trusts or renews it',
        headers: tokenHeaders,
        body: Type.Object({ devicePublicKey: DevicePublicKey, ...SignedKeyChallengeFields }),
        response: { 200: SysKeyDataReply, ...failureReplies },
      },
    },
    async (request) => {
      const header = request.headers.token;
      const token = typeof header === 'string' ? header : undefined;
      const trustedBy = token !== undefined && (await gm.masterTokenMayTrust(token, request.body.devicePublicKey)) ? 'master-card' : null;
      return ok(request, { sysKeyData: await gm.sysKeyDataFor(request.body, trustedBy, request.ip) });
    },
  );
  app.post(
    apiPaths.getGmSysKeyData,
    {
      onRequest: gate,
      config: rateLimit,
      schema: {
        tags,
        summary: 'The system key card on the reader with the customer password trusts the card issuer or renews its trust (failures counted, logged installation-wide); then the key sealed to it',
        headers: languageHeaders,
        body: Type.Object({ devicePublicKey: DevicePublicKey, fixedNo: FixedNo, image: CardImage, customerPwd: Digest, ...SignedKeyChallengeFields }),
        response: { 200: SysKeyDataReply, ...failureReplies },
      },
    },
    async (request) => ok(request, { sysKeyData: await deps.keyCardTrust.sysKeyDataFor(request.body, request.ip) }),
  );
}

import { Type } from 'typebox';
import type { onRequestHookHandler } from 'fastify';
import { apiPaths } from '@campus/contracts';
import type { CardStateAction } from '@campus/contracts';
import type { App } from '../../http/types.ts';
import { envelope, failureReplies, ok, tokenHeaders } from '../../http/envelope.ts';
import type { AdminLoginCardService } from '../admin-login-card/admin-login-card-service.ts';
import type { SystemKeyCardService } from '../system-key-card/system-key-card-service.ts';
import { cardActorOf } from '../card-primitives/card-manager-hook.ts';
import { gateOnly } from '../card-primitives/card-schemas.ts';

export interface CardStateRouteDeps {
  adminCards: AdminLoginCardService;
  systemKeyCards: SystemKeyCardService;
  isGate: boolean;
  requireCardManager: onRequestHookHandler;
}

const CardId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const summaries: Record<CardStateAction, string> = {
  loss: 'Reports the cards lost (every one in use); their holders are signed out',
  unLoss: 'Finds lost cards again (every one lost)',
  freeze: 'Freezes the cards (every one in use); their holders are signed out',
  unFreeze: 'Unfreezes the cards (every one frozen)',
  damage: 'Records one card damaged and recovered (not 10, 30 or 60); its holder is signed out',
};

/** Routes of the card management state actions, by the spec's path names. */
export const cardStateRoutes: { action: CardStateAction; admin: string; key: string }[] = [
  { action: 'loss', admin: apiPaths.adminCardLoss, key: apiPaths.keyCardLoss },
  { action: 'unLoss', admin: apiPaths.adminCardUnLoss, key: apiPaths.keyCardUnLoss },
  { action: 'freeze', admin: apiPaths.adminCardFreeze, key: apiPaths.keyCardFreeze },
  { action: 'unFreeze', admin: apiPaths.adminCardUnFreeze, key: apiPaths.keyCardUnFreeze },
  { action: 'damage', admin: apiPaths.adminCardDamage, key: apiPaths.keyCardDamage },
];

/** Loss, UnLoss, Freeze, UnFreeze and Damage of administrator login cards ({ids}) and system key cards ({id}). */
export function registerCardStateRoutes(app: App, deps: CardStateRouteDeps) {
  const onRequest = [gateOnly(deps.isGate), deps.requireCardManager];
  for (const { action, admin, key } of cardStateRoutes) {
    app.post(
      admin,
      {
        onRequest,
        schema: {
          tags: ['card management'],
          summary: `${summaries[action]} (administrator login cards of the tenant)`,
          headers: tokenHeaders,
          body: Type.Object({ ids: Type.Array(CardId, { minItems: 1, maxItems: 500 }) }, { additionalProperties: false }),
          response: { 200: envelope(Type.Null()), ...failureReplies },
        },
      },
      async (request) => {
        await deps.adminCards.applyStateAction(cardActorOf(request), action, request.body.ids, request.ip, request.lang);
        return ok(request, null);
      },
    );
    app.post(
      key,
      {
        onRequest,
        schema: {
          tags: ['card management'],
          summary: `${summaries[action]} (a system key card)`,
          headers: tokenHeaders,
          body: Type.Object({ id: CardId }, { additionalProperties: false }),
          response: { 200: envelope(Type.Null()), ...failureReplies },
        },
      },
      async (request) => {
        await deps.systemKeyCards.applyStateAction(cardActorOf(request), action, request.body.id, request.ip, request.lang);
        return ok(request, null);
      },
    );
  }
}

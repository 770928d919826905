import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { codes } from '@campus/contracts';
import { sessionOf } from '../../http/auth-hook.ts';
import { AppError } from '../../http/envelope.ts';
import { requiringToken } from '../../http/openapi.ts';
import type { CardActor } from './card-states.ts';

export interface CardManagerHookDeps {
  masterTokenLive: (token: string) => Promise<boolean>;
  requireSession: onRequestHookHandler;
  isSystemAdmin: (userId: string) => Promise<boolean>;
  /** The tenant a master-card swipe acts for: the `tenantCode` header's, else the default tenant. */
  tenantFor: (tenantCode: string | undefined) => Promise<string | null>;
}

const actors = new WeakMap<FastifyRequest, CardActor>();

/** The card manager of a request that passed the card-manager hook. */
export function cardActorOf(request: FastifyRequest): CardActor {
  const actor = actors.get(request);
  if (!actor) throw new AppError(codes.masterCardTokenInvalid, { status: 401 });
  return actor;
}

/**
 * Card management calls (spec §6): a master-card token (installation-wide, for the tenant of the request), or the
 * access token of a system administrator of the tenant, with every rule of a session. With neither token the
 * answer is 401 with code 221: the card screens send the operator to swipe the mother card.
 */
export function makeRequireCardManager(deps: CardManagerHookDeps): onRequestHookHandler {
  return requiringToken(async function requireCardManager(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.token;
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) throw new AppError(codes.masterCardTokenInvalid, { status: 401 });
    if (await deps.masterTokenLive(token)) {
      const tenantHeader = request.headers.tenantcode;
      const tenantCode = await deps.tenantFor(typeof tenantHeader === 'string' ? tenantHeader : undefined);
      if (!tenantCode) throw new AppError(codes.tenantUnknown);
      actors.set(request, { tenantCode, account: 'master-card', userId: null });
      return;
    }
    try {
      await (deps.requireSession as (request: FastifyRequest, reply: FastifyReply) => Promise<void>)(request, reply);
    } catch (error) {
      // neither a live master-card token nor a live session (an expired master-card token looks like neither):
      // the card screens send the operator to swipe the mother card
      if (error instanceof AppError && error.httpStatus === 401) throw new AppError(codes.masterCardTokenInvalid, { status: 401 });
      throw error;
    }
    const session = sessionOf(request);
    if (!(await deps.isSystemAdmin(session.userId))) throw new AppError(codes.noPermission, { status: 403 });
    actors.set(request, { tenantCode: session.tenantCode, account: session.account, userId: session.userId });
  });
}

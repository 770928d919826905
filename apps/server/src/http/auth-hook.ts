import type { FastifyReply, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { AppError } from './envelope.ts';
import { requiringToken } from './openapi.ts';
import { routeKey } from './route-rules.ts';
import type { RuleGate } from './route-rules.ts';
import type { SessionInfo } from './types.ts';

export type SessionResolver = (token: string) => Promise<SessionInfo | 'invalid' | 'expired'>;

/**
 * onRequest hook for routes that need a signed-in caller (the `token` header); the rule gate then refuses
 * what a rule in force (forced password change, no valid licence) does not allow.
 */
export function makeRequireSession(resolve: SessionResolver, gate: RuleGate) {
  return requiringToken(async function requireSession(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.token;
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) throw new AppError(codes.tokenInvalid, { status: 401 });
    const result = await resolve(token);
    if (result === 'invalid') throw new AppError(codes.tokenInvalid, { status: 401 });
    if (result === 'expired') throw new AppError(codes.tokenExpired, { status: 401 });
    await gate(result, routeKey(request.method, request.routeOptions.url ?? ''));
    request.session = result;
  });
}

/** The session of a request that passed requireSession. */
export function sessionOf(request: FastifyRequest): SessionInfo {
  if (!request.session) throw new AppError(codes.tokenInvalid, { status: 401 });
  return request.session;
}

import type { Envelope } from '@campus/contracts';
import { codes } from '@campus/contracts';
import { CardFlowError } from '../../lib/cards/card-flow.ts';
import { i18n } from '../../lib/i18n.ts';
import { apiPostReply, RequestError } from '../../lib/request.ts';
import type { RequestOptions } from '../../lib/request.ts';

/** Every card management call: the master-card token when there is one, else the access token (spec §6). */
export const asCardManager: RequestOptions = { cardManager: true };

/**
 * A card management call: the whole successful envelope (data and recordCount), else a RequestError with the
 * server's message. Nothing is shown here: the screen says what went wrong where it happened.
 */
export function cardManagerCall<T>(url: string, body: unknown = {}): Promise<Envelope<T>> {
  return apiPostReply<T>(url, body, asCardManager);
}

/** Codes of a token the server did not take: neither a master-card token nor a session (221), or a dead one. */
const refusedTokenCodes: readonly number[] = [codes.masterCardTokenInvalid, codes.tokenInvalid, codes.tokenExpired];

/** The server took neither token (HTTP 401, code 221): the operator swipes the mother card again. */
export function isTokenRefused(error: unknown): boolean {
  if (error instanceof RequestError) return error.status === 401 || error.code === codes.masterCardTokenInvalid;
  if (error instanceof CardFlowError) return refusedTokenCodes.includes(error.code);
  return false;
}

/** What to tell the operator about a failed call: the server's (or the reader's) message, else a generic one. */
export function problemText(error: unknown): string {
  if (error instanceof CardFlowError && error.message) return error.message;
  if (error instanceof RequestError && error.code !== null && error.message) return error.message;
  return i18n.t('request.internalError');
}

import { isSuccessCode } from '@campus/contracts';
import { safeRedirectTarget } from '../../lib/paths.ts';

/** What /not-login does with its query (spec §2; issue 49: `token` is a one-time login ticket). */
export type LandingDecision =
  /** Trade the ticket for the session (POST ssoExchangeTicket), then sign in as login type 4. */
  | { kind: 'exchange'; ticket: string; tenantCode: string; fromPath: string | null }
  /** Straight to /error with the message the server's redirect carried ('' when none). */
  | { kind: 'refuse'; message: string };

/**
 * The landing's decision: a ticket, a tenant and a success code (a multiple of 10) are exchanged; anything else
 * goes to /error with `msg`. fromPath survives only as a same-origin path.
 */
export function decideLanding(params: URLSearchParams): LandingDecision {
  const ticket = params.get('token');
  const tenantCode = params.get('tenantCode');
  const code = params.get('code');
  // a code in plain digits only (not '', '0x0' nor '1e1')
  const numeric = code !== null && /^\d+$/.test(code.trim()) ? Number(code) : NaN;
  if (!ticket || !tenantCode || !Number.isInteger(numeric) || !isSuccessCode(numeric)) {
    return { kind: 'refuse', message: params.get('msg') ?? '' };
  }
  return { kind: 'exchange', ticket, tenantCode, fromPath: safeRedirectTarget(params.get('fromPath')) };
}

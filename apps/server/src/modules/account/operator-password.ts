import type { BusinessCode, OperationAction } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import { lockedError } from '../sessions/lockout-errors.ts';
import type { OperationLogService } from '../operation-log/operation-log-service.ts';
import type { UserRow } from './account-repository.ts';
import type { AccountService } from './account-service.ts';

/** What confirming a signed-in operator's own password needs. */
export interface OperatorPasswordDeps {
  account: AccountService;
  lockout: LockoutService;
  logs: OperationLogService;
}

export interface OperatorPasswordCheck {
  user: UserRow;
  /** Digest the browser sent. */
  digest: string;
  clientIp: string;
  /** The operation the password confirms (its log entries carry this action). */
  action: OperationAction;
  /** The code a wrong password answers (with remainingAttempts) while the account is not locked. */
  wrongCode: BusinessCode;
  /** Checks the digest against another stored password than the account's (an administrator card's). */
  matches?: (digest: string) => Promise<boolean>;
}

/** Refuses (accountLocked, logged) while the operator's account or address is locked. */
export async function refuseIfLocked(deps: OperatorPasswordDeps, check: Omit<OperatorPasswordCheck, 'digest' | 'wrongCode'>): Promise<void> {
  const { user, clientIp, action } = check;
  const state = await deps.lockout.state(user.tenant_code, user.account, clientIp);
  if (state.lockedUntil === null) return;
  await deps.logs.record({ tenantCode: user.tenant_code, account: user.account, action, result: 'locked', clientIp });
  throw lockedError(state.lockedUntil);
}

/**
 * Confirms an operator's current password for a sensitive operation. A wrong one counts like a failed
 * sign-in (DESIGN §5 lock-out) and is logged; once the account locks, accountLocked is answered instead.
 */
export async function confirmOperatorPassword(deps: OperatorPasswordDeps, check: OperatorPasswordCheck): Promise<void> {
  const { user, clientIp, action } = check;
  const entry = { tenantCode: user.tenant_code, account: user.account, action, clientIp };
  const matches = check.matches ? await check.matches(check.digest) : await deps.account.checkPassword(user, check.digest);
  if (matches) {
    await deps.lockout.recordSuccess(user.tenant_code, user.account, clientIp);
    return;
  }
  const outcome = await deps.lockout.recordFailure(user.tenant_code, user.account, clientIp);
  await deps.logs.record({ ...entry, result: 'failure', detail: 'wrong current password' });
  if (outcome.lockedUntil !== null) {
    if (outcome.lockedNow) await deps.logs.record({ ...entry, action: 'lock', result: 'locked', detail: `until ${new Date(outcome.lockedUntil).toISOString()}` });
    throw lockedError(outcome.lockedUntil);
  }
  throw new AppError(check.wrongCode, { data: { remainingAttempts: outcome.remainingAttempts } });
}

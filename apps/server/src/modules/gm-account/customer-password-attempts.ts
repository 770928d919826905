import { codes } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { formatLockTime } from '../sessions/lockout-errors.ts';
import type { LockoutService } from '../sessions/lockout-service.ts';
import { installationWide } from '../operation-log/operation-log-service.ts';

/**
 * Every call that checks the customer password (GetGMSysKeyData, RecoverySystemKey, the mother-card swipe after the
 * set-up) counts its wrong ones as the sign-ins of this one installation-wide account: five wrong ones from an address,
 * on any mix of those calls, lock that address out of all of them for 1, then 5, then 15 minutes, and twenty from
 * three addresses lock everyone out for 15 minutes (lockout-service.ts), on every server node alike. One account,
 * so that a guesser locked out of one call cannot go on guessing through another.
 */
export const customerPasswordAttemptsAccount = 'customer-password';

function lockedError(until: number): AppError {
  return new AppError(codes.keyCardTrustLocked, { data: { lockingTime: until }, values: { time: formatLockTime(until) } });
}

export class CustomerPasswordAttempts {
  constructor(private readonly lockout: Pick<LockoutService, 'state' | 'recordFailure' | 'recordSuccess'>) {}

  /** Refuses (248) while this address, or everyone, is locked out; check before the password is looked at. */
  async requireUnlocked(clientIp: string): Promise<void> {
    const lock = await this.lockout.state(installationWide, customerPasswordAttemptsAccount, clientIp);
    if (lock.lockedUntil !== null) throw lockedError(lock.lockedUntil);
  }

  /** Counts a wrong customer password: 215 with the attempts left, or 248 when this one started a lock. */
  async wrong(clientIp: string): Promise<never> {
    const outcome = await this.lockout.recordFailure(installationWide, customerPasswordAttemptsAccount, clientIp);
    if (outcome.lockedUntil !== null) throw lockedError(outcome.lockedUntil);
    throw new AppError(codes.customerPasswordWrong, { data: { remainingAttempts: outcome.remainingAttempts } });
  }

  async right(clientIp: string): Promise<void> {
    await this.lockout.recordSuccess(installationWide, customerPasswordAttemptsAccount, clientIp);
  }
}

import { lockout } from '@campus/contracts';
import type { AuthRepository, FailureRow, FailureScope } from './auth-repository.ts';

/** Counters left alone this long (and not locked) start again from zero. */
const forgetAfterMs = 12 * 3600_000;

export interface LockState {
  /** Epoch ms when the account's or the address's lock ends; null when not locked. */
  lockedUntil: number | null;
  captchaRequired: boolean;
}

export interface FailureOutcome {
  lockedUntil: number | null;
  /** True when this failure started a lock (of the account or the address). */
  lockedNow: boolean;
  captchaRequired: boolean;
  remainingAttempts: number;
}

export function accountKey(tenantCode: string, account: string): string {
  // Tenant codes never hold '|' (route schema), so the key is unambiguous; no NUL (PostgreSQL text).
  return `${tenantCode}|${account.toLowerCase()}`;
}

function lockMinutes(lockCount: number): number {
  const list = lockout.lockMinutes;
  return list[Math.min(lockCount, list.length) - 1] ?? list[list.length - 1] ?? 15;
}

/**
 * Failed sign-ins per (tenant, account) and per client address (DESIGN §5): a captcha from 3 account
 * failures, a lock at 5 (1, 5, then 15 minutes), and a lock of the address at `addressLimit` failures.
 */
export class LockoutService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly addressLimit: number,
    private readonly now: () => number,
  ) {}

  private async current(scope: FailureScope, key: string): Promise<FailureRow> {
    const now = this.now();
    const row = await this.repo.failure(scope, key);
    const fresh: FailureRow = { scope, key, failures: 0, lock_count: 0, locked_until: null, updated_at: now };
    if (!row) return fresh;
    const locked = row.locked_until !== null && row.locked_until > now;
    if (!locked && now - row.updated_at > forgetAfterMs) return fresh;
    return row;
  }

  async state(tenantCode: string, account: string, address: string): Promise<LockState> {
    const now = this.now();
    const [acc, addr] = await Promise.all([this.current('account', accountKey(tenantCode, account)), this.current('address', address)]);
    const until = [acc.locked_until, addr.locked_until].filter((t): t is number => t !== null && t > now);
    return {
      lockedUntil: until.length ? Math.max(...until) : null,
      captchaRequired: acc.failures >= lockout.captchaAfterFailures || acc.lock_count > 0,
    };
  }

  private bump(row: FailureRow, limit: number): { row: FailureRow; lockedNow: boolean } {
    const now = this.now();
    const failures = row.failures + 1;
    if (failures >= limit) {
      const lockCount = row.lock_count + 1;
      return {
        row: { ...row, failures: 0, lock_count: lockCount, locked_until: now + lockMinutes(lockCount) * 60_000, updated_at: now },
        lockedNow: true,
      };
    }
    return { row: { ...row, failures, updated_at: now }, lockedNow: false };
  }

  async recordFailure(tenantCode: string, account: string, address: string): Promise<FailureOutcome> {
    const acc = this.bump(await this.current('account', accountKey(tenantCode, account)), lockout.lockAfterFailures);
    const addr = this.bump(await this.current('address', address), this.addressLimit);
    await this.repo.putFailure(acc.row);
    await this.repo.putFailure(addr.row);
    const now = this.now();
    const until = [acc.row.locked_until, addr.row.locked_until].filter((t): t is number => t !== null && t > now);
    return {
      lockedUntil: until.length ? Math.max(...until) : null,
      lockedNow: acc.lockedNow || addr.lockedNow,
      captchaRequired: acc.row.failures >= lockout.captchaAfterFailures || acc.row.lock_count > 0,
      remainingAttempts: lockout.lockAfterFailures - acc.row.failures,
    };
  }

  /** A successful sign-in forgets the account's failures (the address keeps its count). */
  async recordSuccess(tenantCode: string, account: string): Promise<void> {
    await this.repo.deleteFailure('account', accountKey(tenantCode, account));
  }
}

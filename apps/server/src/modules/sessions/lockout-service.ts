import { lockout } from '@campus/contracts';
import type { AuthRepository, FailureRow, FailureScope } from './auth-repository.ts';

/** Account counters left alone this long (and not locked) start again from zero. */
const forgetAccountAfterMs = 12 * 3600_000;
/** Address counters count the failures of a sliding quarter of an hour (roughly: the window restarts when idle). */
const forgetAddressAfterMs = lockout.addressWindowMinutes * 60_000;

export interface LockState {
  /** Epoch ms when the lock of this account (from this address, or from everywhere) ends; null when not locked. */
  lockedUntil: number | null;
  captchaRequired: boolean;
  /** Epoch ms before which this address may not try again (throttled, never locked); null when it may. */
  throttledUntil: number | null;
}

export interface FailureOutcome {
  lockedUntil: number | null;
  /** True when this failure started a lock. */
  lockedNow: boolean;
  captchaRequired: boolean;
  /** Failures left before this address is locked out of the account. */
  remainingAttempts: number;
}

export function accountKey(tenantCode: string, account: string): string {
  // Tenant codes never hold '|' (route schema), so the key is unambiguous; no NUL (PostgreSQL text).
  return `${tenantCode}|${account.toLowerCase()}`;
}

/** The key of an account as tried from one address (addresses hold no '|', so it stays unambiguous). */
function pairKey(tenantCode: string, account: string, address: string): string {
  return `${accountKey(tenantCode, account)}|${address}`;
}

function lockMinutes(lockCount: number): number {
  const list = lockout.lockMinutes;
  return list[Math.min(lockCount, list.length) - 1] ?? list[list.length - 1] ?? 15;
}

function addressesOf(row: FailureRow): string[] {
  try {
    const parsed: unknown = JSON.parse(row.addresses ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

const isLive = (until: number | null, now: number): until is number => until !== null && until > now;

export interface LockoutServiceDeps {
  repo: AuthRepository;
  addressLimit: number;
  now: () => number;
}

/**
 * Failed sign-ins (docs/sign-in.md "Failed sign-ins and lock-outs"). Three counters, so that nobody can lock out people who did
 * nothing wrong:
 * - account + address: an image code from the 3rd failure, a lock of that pair at the 5th (1, 5, then 15
 *   minutes). This is the "account locked" an address sees after its own failures.
 * - account, from every address: locked for everyone only at 20 failures coming from at least 3 addresses
 *   (15 minutes), and an image code everywhere from the 5th.
 * - address, across accounts (a NAT of a whole campus): from `addressLimit` failures an image code on every
 *   try and a growing wait (1 s, doubling, at most 60 s) answered with 429; it never locks an account.
 */
export class LockoutService {
  private readonly repo: AuthRepository;
  private readonly addressLimit: number;
  private readonly now: () => number;

  constructor(deps: LockoutServiceDeps) {
    this.repo = deps.repo;
    this.addressLimit = deps.addressLimit;
    this.now = deps.now;
  }

  private async current(scope: FailureScope, key: string, repo: AuthRepository = this.repo): Promise<FailureRow> {
    const now = this.now();
    const row = await repo.failure(scope, key);
    const fresh: FailureRow = { scope, key, failures: 0, lock_count: 0, locked_until: null, updated_at: now, addresses: null };
    if (!row) return fresh;
    const forgetAfter = scope === 'address' ? forgetAddressAfterMs : forgetAccountAfterMs;
    if (!isLive(row.locked_until, now) && now - row.updated_at > forgetAfter) return fresh;
    return row;
  }

  private keys(tenantCode: string, account: string, address: string): { scope: FailureScope; key: string }[] {
    return [
      { scope: 'pair', key: pairKey(tenantCode, account, address) },
      { scope: 'account', key: accountKey(tenantCode, account) },
      { scope: 'address', key: address },
    ];
  }

  private async rows(tenantCode: string, account: string, address: string, repo: AuthRepository = this.repo): Promise<[FailureRow, FailureRow, FailureRow]> {
    const [pair, acc, addr] = this.keys(tenantCode, account, address);
    return Promise.all([this.current(pair!.scope, pair!.key, repo), this.current(acc!.scope, acc!.key, repo), this.current(addr!.scope, addr!.key, repo)]);
  }

  private captchaRequired(pair: FailureRow, acc: FailureRow, addr: FailureRow): boolean {
    return (
      pair.failures >= lockout.captchaAfterFailures ||
      pair.lock_count > 0 ||
      acc.failures >= lockout.accountCaptchaAfterFailures ||
      acc.lock_count > 0 ||
      addr.failures >= this.addressLimit
    );
  }

  private lockedUntil(pair: FailureRow, acc: FailureRow): number | null {
    const now = this.now();
    const until = [pair.locked_until, acc.locked_until].filter((t): t is number => isLive(t, now));
    return until.length ? Math.max(...until) : null;
  }

  async state(tenantCode: string, account: string, address: string): Promise<LockState> {
    const [pair, acc, addr] = await this.rows(tenantCode, account, address);
    return {
      lockedUntil: this.lockedUntil(pair, acc),
      captchaRequired: this.captchaRequired(pair, acc, addr),
      throttledUntil: isLive(addr.locked_until, this.now()) ? addr.locked_until : null,
    };
  }

  /**
   * Counts a failure. Read, count and write happen in one transaction that holds the three counters, so failures
   * arriving at once (on one node or on several) are each counted: none is lost to another's write.
   */
  recordFailure(tenantCode: string, account: string, address: string): Promise<FailureOutcome> {
    return this.repo.transaction(async (repo) => {
      await repo.lockFailures(this.keys(tenantCode, account, address));
      return this.countFailure(repo, tenantCode, account, address);
    });
  }

  private async countFailure(repo: AuthRepository, tenantCode: string, account: string, address: string): Promise<FailureOutcome> {
    const now = this.now();
    const [pairRow, accRow, addrRow] = await this.rows(tenantCode, account, address, repo);

    let pair: FailureRow = { ...pairRow, failures: pairRow.failures + 1, updated_at: now };
    let pairLocked = false;
    if (pair.failures >= lockout.lockAfterFailures) {
      const lockCount = pair.lock_count + 1;
      pair = { ...pair, failures: 0, lock_count: lockCount, locked_until: now + lockMinutes(lockCount) * 60_000 };
      pairLocked = true;
    }

    const seen = addressesOf(accRow);
    const addresses = seen.includes(address) ? seen : [...seen, address].slice(-lockout.accountAddressesKept);
    let acc: FailureRow = { ...accRow, failures: accRow.failures + 1, updated_at: now, addresses: JSON.stringify(addresses) };
    let accLocked = false;
    if (acc.failures >= lockout.accountLockFailures && addresses.length >= lockout.accountLockAddresses) {
      acc = { ...acc, failures: 0, addresses: null, lock_count: acc.lock_count + 1, locked_until: now + lockout.accountLockMinutes * 60_000 };
      accLocked = true;
    }

    let addr: FailureRow = { ...addrRow, failures: addrRow.failures + 1, updated_at: now };
    const over = addr.failures - this.addressLimit;
    if (over >= 0) addr = { ...addr, locked_until: now + Math.min(2 ** over, lockout.addressMaxWaitSeconds) * 1000 };

    await repo.putFailure(pair);
    await repo.putFailure(acc);
    await repo.putFailure(addr);
    return {
      lockedUntil: this.lockedUntil(pair, acc),
      lockedNow: pairLocked || accLocked,
      captchaRequired: this.captchaRequired(pair, acc, addr),
      remainingAttempts: lockout.lockAfterFailures - pair.failures,
    };
  }

  /**
   * A successful sign-in forgets the failures of the account, from this address and from everywhere. The
   * address keeps its count: one right password must not open the way for guessing at other accounts.
   */
  async recordSuccess(tenantCode: string, account: string, address: string): Promise<void> {
    await this.repo.deleteFailure('pair', pairKey(tenantCode, account, address));
    await this.repo.deleteFailure('account', accountKey(tenantCode, account));
  }
}

/**
 * Forced password change after sign-in (spec §4, reading A), as a pure decision: the one place of this rule.
 * The shell shows the Change Password dialog from it; the server refuses a forced session's other calls by it.
 *
 * - No prompt for third-party sign-ins, with an abnormal licence, or without a reason.
 * - Forced (no way to cancel) for reason 0 (first sign-in), 3 (reset by an administrator), or 2 with a
 *   locking date (the password expired on that date).
 * - Reason 1, or 2 without a date: not forced, 'Please update your password immediately'.
 * - Any other reason: no prompt.
 */
export interface ForcedChangeInput {
  oprtPwdEditReason: number | null | undefined;
  /** Epoch ms the password expires or expired. */
  lockingTime: number | null | undefined;
  thirdParty: boolean;
  licenceNormal: boolean;
}

export type ForcedChangeNotice =
  | { key: 'account.notice.firstSignIn' }
  | { key: 'account.notice.adminReset' }
  | { key: 'account.notice.updateNow' }
  | { key: 'account.notice.expiredOn'; date: number };

export interface ForcedChangeDecision {
  forced: boolean;
  notice: ForcedChangeNotice;
}

export const passwordEditReasons = {
  firstSignIn: 0,
  updateRequested: 1,
  expired: 2,
  adminReset: 3,
} as const;

function hasDate(lockingTime: number | null | undefined): lockingTime is number {
  return typeof lockingTime === 'number' && Number.isFinite(lockingTime) && lockingTime > 0;
}

/** What to show after sign-in: null for nothing, else the Change Password dialog, forced or not. */
export function decideForcedChange(input: ForcedChangeInput): ForcedChangeDecision | null {
  if (input.thirdParty || !input.licenceNormal) return null;
  switch (input.oprtPwdEditReason) {
    case passwordEditReasons.firstSignIn:
      return { forced: true, notice: { key: 'account.notice.firstSignIn' } };
    case passwordEditReasons.adminReset:
      return { forced: true, notice: { key: 'account.notice.adminReset' } };
    case passwordEditReasons.expired:
      return hasDate(input.lockingTime)
        ? { forced: true, notice: { key: 'account.notice.expiredOn', date: input.lockingTime } }
        : { forced: false, notice: { key: 'account.notice.updateNow' } };
    case passwordEditReasons.updateRequested:
      return { forced: false, notice: { key: 'account.notice.updateNow' } };
    default:
      return null;
  }
}


/**
 * Forced password change after sign-in (spec §4, reading A), as a pure decision.
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

/**
 * A date as the user's language writes it (en-US "January 1, 2026", zh "2026年1月1日"), on the calendar of the
 * user's time zone (utcDiff, minutes east of UTC, from the user settings) when it is known, else the browser's.
 */
export function formatNoticeDate(epochMs: number, language: string, utcDiff: number | null = null): string {
  const shifted = utcDiff !== null && Number.isFinite(utcDiff);
  const date = new Date(shifted ? epochMs + utcDiff * 60_000 : epochMs);
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'long', day: 'numeric', ...(shifted ? { timeZone: 'UTC' } : {}) };
  try {
    return new Intl.DateTimeFormat(language, options).format(date);
  } catch {
    // an unknown language tag: the runtime's default
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

type Translate = (key: ForcedChangeNotice['key'], values?: { date: string }) => string;

/** The notice in the current language. */
export function noticeText(notice: ForcedChangeNotice, t: Translate, language: string, utcDiff: number | null = null): string {
  if (notice.key === 'account.notice.expiredOn') return t(notice.key, { date: formatNoticeDate(notice.date, language, utcDiff) });
  return t(notice.key);
}

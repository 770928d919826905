import { decideForcedChange, passwordEditReasons } from '@campus/contracts';
import type { ForcedChangeDecision, ForcedChangeInput, ForcedChangeNotice } from '@campus/contracts';

export { decideForcedChange, passwordEditReasons };
export type { ForcedChangeDecision, ForcedChangeInput, ForcedChangeNotice };

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

import { formatTime as formatInstant, fromWallClock, wallClock } from '@campus/subapp-sdk/time';

/**
 * The user's clock, by the shell's rule (@campus/subapp-sdk/time): the shell gives utcDiff, minutes east of UTC of
 * the user's time zone (user settings timeZone.utcDiff), which may differ from the browser's zone. Every time shown or
 * typed is on that clock; where it matters the page names it (common.inZone).
 */
const minuteMs = 60_000;

export type DayPeriod = 'morning' | 'afternoon' | 'evening';

/** Morning 05:00–11:59, afternoon 12:00–17:59, evening otherwise, on the user's clock. */
export function dayPeriod(epochMs: number, utcDiff: number): DayPeriod {
  const hour = wallClock(epochMs, utcDiff).getUTCHours();
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}

/** 'YYYY-MM-DD HH:mm:ss' on the user's clock. */
export function formatDateTime(epochMs: number, utcDiff: number): string {
  return formatInstant(epochMs, { utcDiff, language: 'en-US', style: 'log' });
}

/** 'HH:mm:ss' on the user's clock. */
export function formatTime(epochMs: number, utcDiff: number): string {
  return formatInstant(epochMs, { utcDiff, language: 'en-US', style: 'time' });
}

export interface ParsedWallClock {
  /** Epoch ms of the instant typed. */
  at: number;
  /** The last millisecond the value covers: the end of its minute (or of its second when seconds were typed). */
  through: number;
}

/**
 * A datetime-local value ('YYYY-MM-DDTHH:mm', optionally ':ss' and '.sss') read on the user's clock;
 * null when empty or not a real date.
 */
export function parseDateTimeLocal(value: string, utcDiff: number): ParsedWallClock | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number) as [number, number, number, number, number];
  const second = match[6] === undefined ? 0 : Number(match[6]);
  const millisecond = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const at = fromWallClock({ year, month, day, hour, minute, second, millisecond }, utcDiff);
  // a date that does not exist (30 February) or a clock past 23:59:59 reads back as another wall clock
  const check = wallClock(at, utcDiff);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second) {
    return null;
  }
  const span = match[7] !== undefined ? 1 : match[6] !== undefined ? 1000 : minuteMs;
  return { at, through: at + span - 1 };
}

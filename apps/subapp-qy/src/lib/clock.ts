/**
 * The user's clock: the shell gives utcDiff, minutes east of UTC of the user's calendar (user settings
 * timeZone.utcDiff), which may differ from the browser's zone. Every time shown or typed is on that clock.
 */
const minuteMs = 60_000;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** A Date whose UTC fields are the user's wall-clock fields at that instant. */
function wallClock(epochMs: number, utcDiff: number): Date {
  return new Date(epochMs + utcDiff * minuteMs);
}

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
  const d = wallClock(epochMs, utcDiff);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${formatClock(d)}`;
}

/** 'HH:mm:ss' on the user's clock. */
export function formatTime(epochMs: number, utcDiff: number): string {
  return formatClock(wallClock(epochMs, utcDiff));
}

function formatClock(d: Date): string {
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
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
  const milli = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const at = asUtc - utcDiff * minuteMs;
  const span = match[7] !== undefined ? 1 : match[6] !== undefined ? 1000 : minuteMs;
  return { at, through: at + span - 1 };
}

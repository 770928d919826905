/**
 * How the shell and its sub-apps show times (issue 15, item 8), one rule for both:
 * - the server stores and sends instants in UTC (epoch milliseconds);
 * - an instant is shown on the viewer's clock: a fixed offset in minutes east of UTC (`utcDiff`). Inside the shell
 *   that is the signed-in user's time zone (user settings timeZone.utcDiff, `ShellGlobalConfig.utcDiff`); the shell
 *   falls back to the browser's zone only where nobody is signed in (see apps/shell/src/lib/time-format.ts);
 * - where the zone matters (a lock-out's end, a password's expiry, licence times, a table column of times) it is
 *   named: 'UTC+8', 'UTC-5', 'UTC+5:45';
 * - a calendar date (a licence's last day) is a day of its own calendar, not an instant: it is shown on that
 *   calendar's offset, the same date for every viewer.
 * The offset is applied by arithmetic and the result formatted as UTC, so the text is the same on every machine
 * whatever its own zone, and offsets such as +5:45 need no zone database.
 */

const minuteMs = 60_000;

/** Minutes east of UTC of the browser's zone at `epochMs` (daylight saving time included). */
export function browserUtcDiff(epochMs: number = Date.now()): number {
  // `|| 0` turns the -0 of a UTC browser into 0
  return -new Date(epochMs).getTimezoneOffset() || 0;
}

/** A Date whose UTC fields are the wall-clock fields at `epochMs` on the clock `utcDiff` minutes east of UTC. */
export function wallClock(epochMs: number, utcDiff: number): Date {
  return new Date(epochMs + utcDiff * minuteMs);
}

/** The wall-clock fields of an instant; `month` is 1 to 12. */
export interface WallClockFields {
  year: number;
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
}

/** The instant (epoch ms) whose wall clock `utcDiff` minutes east of UTC reads `fields`. */
export function fromWallClock(fields: WallClockFields, utcDiff: number): number {
  const { year, month, day, hour = 0, minute = 0, second = 0, millisecond = 0 } = fields;
  return Date.UTC(year, month - 1, day, hour, minute, second, millisecond) - utcDiff * minuteMs;
}

/** The zone's name for people: 'UTC', 'UTC+8', 'UTC-5', 'UTC+5:45', 'UTC-3:30'. */
export function zoneName(utcDiff: number): string {
  const minutes = Math.round(utcDiff);
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '-';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `UTC${sign}${hours}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/**
 * How much of an instant to show:
 * - `date`: the date as the language writes it in digits (2026/04/01, 04/01/2026);
 * - `dateTime`: that date and the time to the second, 24-hour (2026/04/01 04:00:00);
 * - `longDate`: the date with the month's name (January 1, 2026; 2026年1月1日);
 * - `longDateMinute`: that and the time to the minute, 24-hour (January 1, 2026 at 00:00; 2026年1月1日 00:00);
 * - `mediumDateTime`: short month name and the time to the second, as the language writes it (Nov 21, 2026, 2:00:37 AM);
 * - `mediumDateMinute`: the same to the minute (Nov 21, 2026, 2:00 AM);
 * - `time`: the time to the second, 24-hour (14:05:00);
 * - `log`: YYYY-MM-DD HH:mm:ss whatever the language (logs, where rows are compared by eye).
 */
export type TimeStyle = 'date' | 'dateTime' | 'longDate' | 'longDateMinute' | 'mediumDateTime' | 'mediumDateMinute' | 'time' | 'log';

const clock24: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
const numericDate: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };

/** The styles written the same in every language, digits only: made without Intl (see formatWallClock). */
type DigitStyle = 'log' | 'time';

const intlStyles: Record<Exclude<TimeStyle, DigitStyle>, Intl.DateTimeFormatOptions> = {
  date: numericDate,
  dateTime: { ...numericDate, ...clock24 },
  longDate: { year: 'numeric', month: 'long', day: 'numeric' },
  longDateMinute: { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  mediumDateTime: { dateStyle: 'medium', timeStyle: 'medium' },
  mediumDateMinute: { dateStyle: 'medium', timeStyle: 'short' },
};

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The digit styles are written by hand: the first Intl object a page makes loads the browser's locale data, about
 * 50 ms at once on a desktop and 200 ms on a mid-range phone, and a page that shows only a clock time (a sub-app's
 * "updated at") need not pay it in the middle of its first mount. 'time' is what Intl writes for it in every shell
 * language (the tests compare the two).
 */
function formatWallClock(clock: Date, language: string, style: TimeStyle): string {
  const time = `${pad(clock.getUTCHours())}:${pad(clock.getUTCMinutes())}:${pad(clock.getUTCSeconds())}`;
  if (style === 'time') return time;
  if (style === 'log') return `${pad(clock.getUTCFullYear(), 4)}-${pad(clock.getUTCMonth() + 1)}-${pad(clock.getUTCDate())} ${time}`;
  return wallClockFormat(language, style).format(clock);
}

/** Made once per language and style: making an Intl.DateTimeFormat costs far more than using one (a table of times). */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(language: string, style: Exclude<TimeStyle, DigitStyle>): Intl.DateTimeFormat {
  const key = `${language}\u0000${style}`;
  let format = wallClockFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { ...intlStyles[style], timeZone: 'UTC' };
    try {
      format = new Intl.DateTimeFormat(language, options);
    } catch {
      // a tag the runtime does not know: its default language, same clock
      format = new Intl.DateTimeFormat(undefined, options);
    }
    wallClockFormats.set(key, format);
  }
  return format;
}

export interface FormatTimeOptions {
  /** Minutes east of UTC of the clock to show the instant on (the viewer's). */
  utcDiff: number;
  /** The interface language (en-US, zh-CN, zh-MO). */
  language: string;
  style: TimeStyle;
  /** Name the zone after the time: 'Nov 24, 2026, 2:05 PM UTC+8'. */
  withZone?: boolean;
}

/** An instant (epoch ms, UTC) on the clock `utcDiff` minutes east of UTC; '-' when it is not a time. */
export function formatTime(epochMs: number, options: FormatTimeOptions): string {
  if (!Number.isFinite(epochMs) || !Number.isFinite(options.utcDiff)) return '-';
  const text = formatWallClock(wallClock(epochMs, options.utcDiff), options.language, options.style);
  return options.withZone ? `${text} ${zoneName(options.utcDiff)}` : text;
}

/**
 * A calendar date (a day, not an instant) kept as an instant of that day on the clock `calendarUtcDiff` minutes east
 * of UTC: shown as that day for every viewer, whatever the viewer's own zone.
 */
export function formatCalendarDate(epochMs: number, calendarUtcDiff: number, language: string, style: 'date' | 'longDate' = 'date'): string {
  return formatTime(epochMs, { utcDiff: calendarUtcDiff, language, style });
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserUtcDiff, formatCalendarDate, formatTime, fromWallClock, wallClock, zoneName } from './time.ts';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0) => Date.UTC(y, m - 1, d, h, min, s);

/** Zones without daylight saving time: Macau/Beijing, Colombia/Peru (New York in winter), Nepal, India-ish, Newfoundland-ish. */
const macau = 480;
const bogota = -300;
const kathmandu = 345;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('zoneName', () => {
  it.each([
    [0, 'UTC'],
    [480, 'UTC+8'],
    [-300, 'UTC-5'],
    [345, 'UTC+5:45'],
    [330, 'UTC+5:30'],
    [-210, 'UTC-3:30'],
    [840, 'UTC+14'],
    [-720, 'UTC-12'],
  ])('%i minutes east of UTC is %s', (utcDiff, name) => {
    expect(zoneName(utcDiff)).toBe(name);
  });
});

describe('formatTime: the digit styles, written without Intl', () => {
  it.each(['en-US', 'zh-CN', 'zh-MO'])('writes the time in %s as Intl does, to the second, 24-hour', (language) => {
    const intl = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC' });
    for (const instant of [utc(2026, 1, 1), utc(2026, 11, 24, 6, 5, 9), utc(2026, 6, 30, 12, 0, 0), utc(2026, 12, 31, 23, 59, 59)]) {
      expect(formatTime(instant, { utcDiff: 0, language, style: 'time' })).toBe(intl.format(instant));
    }
  });
});

describe('formatTime: one instant on several clocks', () => {
  // 2026-11-24 06:05:00 UTC
  const instant = utc(2026, 11, 24, 6, 5);

  it('shows the wall clock of the zone asked for, whatever the machine runs in', () => {
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'log' })).toBe('2026-11-24 14:05:00');
    expect(formatTime(instant, { utcDiff: bogota, language: 'en-US', style: 'log' })).toBe('2026-11-24 01:05:00');
    expect(formatTime(instant, { utcDiff: kathmandu, language: 'en-US', style: 'log' })).toBe('2026-11-24 11:50:00');
    expect(formatTime(instant, { utcDiff: 0, language: 'en-US', style: 'log' })).toBe('2026-11-24 06:05:00');
  });

  it('names the zone when asked', () => {
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'time', withZone: true })).toBe('14:05:00 UTC+8');
    expect(formatTime(instant, { utcDiff: kathmandu, language: 'en-US', style: 'time', withZone: true })).toBe('11:50:00 UTC+5:45');
    expect(formatTime(instant, { utcDiff: bogota, language: 'zh-CN', style: 'mediumDateMinute', withZone: true })).toBe('2026年11月24日 01:05 UTC-5');
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'mediumDateMinute', withZone: true })).toBe('Nov 24, 2026, 2:05 PM UTC+8');
  });

  it('writes the date as each language does', () => {
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'date' })).toBe('11/24/2026');
    expect(formatTime(instant, { utcDiff: macau, language: 'zh-CN', style: 'date' })).toBe('2026/11/24');
    // Macau writes the day first
    expect(formatTime(instant, { utcDiff: macau, language: 'zh-MO', style: 'date' })).toBe('24/11/2026');
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'dateTime' })).toBe('11/24/2026, 14:05:00');
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'longDate' })).toBe('November 24, 2026');
    expect(formatTime(instant, { utcDiff: macau, language: 'zh-MO', style: 'longDate' })).toBe('2026年11月24日');
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'longDateMinute', withZone: true })).toBe('November 24, 2026 at 14:05 UTC+8');
    expect(formatTime(instant, { utcDiff: bogota, language: 'zh-MO', style: 'longDateMinute', withZone: true })).toBe('2026年11月24日 01:05 UTC-5');
    expect(formatTime(instant, { utcDiff: macau, language: 'en-US', style: 'mediumDateTime' })).toBe('Nov 24, 2026, 2:05:00 PM');
  });

  it('a date boundary falls where the viewer is: the same instant is two different days', () => {
    // 2026-03-31 20:00 UTC: already 1 April in Macau and Kathmandu, still 31 March in Bogotá
    const evening = utc(2026, 3, 31, 20);
    expect(formatTime(evening, { utcDiff: macau, language: 'en-US', style: 'date' })).toBe('04/01/2026');
    expect(formatTime(evening, { utcDiff: kathmandu, language: 'en-US', style: 'date' })).toBe('04/01/2026');
    expect(formatTime(evening, { utcDiff: bogota, language: 'en-US', style: 'date' })).toBe('03/31/2026');
    // the last minute of a year at UTC+8 is still that year; a minute later it is the next, in UTC already 16:00
    expect(formatTime(utc(2025, 12, 31, 15, 59), { utcDiff: macau, language: 'en-US', style: 'log' })).toBe('2025-12-31 23:59:00');
    expect(formatTime(utc(2025, 12, 31, 16, 0), { utcDiff: macau, language: 'en-US', style: 'log' })).toBe('2026-01-01 00:00:00');
    // a leap day on a clock behind UTC
    expect(formatTime(utc(2028, 3, 1, 3, 0), { utcDiff: bogota, language: 'en-US', style: 'date' })).toBe('02/29/2028');
  });

  it('an unknown language tag uses the default language on the same clock; what is not a time shows a dash', () => {
    expect(formatTime(instant, { utcDiff: macau, language: 'not a tag!', style: 'dateTime' })).toMatch(/2026/);
    expect(formatTime(instant, { utcDiff: macau, language: 'not a tag!', style: 'dateTime' })).toMatch(/14:05:00/);
    expect(formatTime(Number.NaN, { utcDiff: macau, language: 'en-US', style: 'date' })).toBe('-');
    expect(formatTime(instant, { utcDiff: Number.NaN, language: 'en-US', style: 'date' })).toBe('-');
  });
});

describe('calendar dates', () => {
  // a licence issued for 2026-01-01 to 2099-12-31 on the vendor's calendar (UTC+8): 00:00 of the first day, the last
  // millisecond of the last
  const first = fromWallClock({ year: 2026, month: 1, day: 1 }, macau);
  const last = fromWallClock({ year: 2099, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999 }, macau);

  it('are the same day for every viewer', () => {
    for (const language of ['en-US', 'zh-CN']) {
      expect(formatCalendarDate(first, macau, language)).toBe(language === 'en-US' ? '01/01/2026' : '2026/01/01');
      expect(formatCalendarDate(last, macau, language)).toBe(language === 'en-US' ? '12/31/2099' : '2099/12/31');
    }
    // what the same instants would read as on the viewers' own clocks: a day off either way
    expect(formatTime(first, { utcDiff: bogota, language: 'en-US', style: 'date' })).toBe('12/31/2025');
    expect(formatTime(last, { utcDiff: 540, language: 'en-US', style: 'date' })).toBe('01/01/2100');
    expect(formatCalendarDate(first, macau, 'en-US', 'longDate')).toBe('January 1, 2026');
  });
});

describe('wall clocks', () => {
  it('fromWallClock is the inverse of wallClock on every clock', () => {
    for (const utcDiff of [macau, bogota, kathmandu, 0, -210, 840]) {
      const instant = fromWallClock({ year: 2026, month: 2, day: 28, hour: 23, minute: 30, second: 15 }, utcDiff);
      const clock = wallClock(instant, utcDiff);
      expect([clock.getUTCFullYear(), clock.getUTCMonth() + 1, clock.getUTCDate(), clock.getUTCHours(), clock.getUTCMinutes(), clock.getUTCSeconds()]).toEqual([2026, 2, 28, 23, 30, 15]);
    }
    expect(fromWallClock({ year: 2026, month: 1, day: 1 }, macau)).toBe(utc(2025, 12, 31, 16));
    expect(fromWallClock({ year: 2026, month: 1, day: 1 }, kathmandu)).toBe(utc(2025, 12, 31, 18, 15));
  });

  it("browserUtcDiff is the browser's offset at that instant, east positive", () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-480);
    expect(browserUtcDiff(utc(2026, 1, 1))).toBe(480);
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(300);
    expect(browserUtcDiff()).toBe(-300);
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(0);
    expect(Object.is(browserUtcDiff(), 0)).toBe(true);
  });
});

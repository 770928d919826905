import { describe, expect, it } from 'vitest';
import { dayPeriod, formatDateTime, formatTime, parseDateTimeLocal } from './clock.ts';

const utc = (h: number, m = 0, s = 0) => Date.UTC(2026, 10, 20, h, m, s);

describe("the user's clock", () => {
  it('reads the day period on the user clock, not the browser zone', () => {
    expect(dayPeriod(utc(1), 480)).toBe('morning'); // 09:00 in UTC+8
    expect(dayPeriod(utc(4, 59), 0)).toBe('evening');
    expect(dayPeriod(utc(5), 0)).toBe('morning');
    expect(dayPeriod(utc(11, 59), 0)).toBe('morning');
    expect(dayPeriod(utc(12), 0)).toBe('afternoon');
    expect(dayPeriod(utc(17, 59), 0)).toBe('afternoon');
    expect(dayPeriod(utc(18), 0)).toBe('evening');
    expect(dayPeriod(utc(20), -300)).toBe('afternoon'); // 15:00 in UTC-5
  });

  it('formats on the user clock', () => {
    expect(formatDateTime(utc(16, 5, 9), 480)).toBe('2026-11-21 00:05:09');
    expect(formatDateTime(utc(0, 0, 0), -60)).toBe('2026-11-19 23:00:00');
    expect(formatTime(utc(1, 2, 3), 330)).toBe('06:32:03');
  });

  it('parses datetime-local values on the user clock; the end covers the typed minute or second', () => {
    expect(parseDateTimeLocal('2026-11-20T08:30', 480)).toEqual({ at: utc(0, 30), through: utc(0, 30) + 59_999 });
    expect(parseDateTimeLocal('2026-11-20T08:30:15', 480)).toEqual({ at: utc(0, 30, 15), through: utc(0, 30, 15) + 999 });
    expect(parseDateTimeLocal('2026-11-20T08:30:15.5', 0)?.at).toBe(utc(8, 30, 15) + 500);
    expect(parseDateTimeLocal('2026-11-20T00:00', -120)?.at).toBe(utc(2));
  });

  it('refuses empty and impossible values', () => {
    expect(parseDateTimeLocal('', 0)).toBeNull();
    expect(parseDateTimeLocal('2026-02-30T10:00', 0)).toBeNull();
    expect(parseDateTimeLocal('2026-11-20T24:00', 0)).toBeNull();
    expect(parseDateTimeLocal('20/11/2026 10:00', 0)).toBeNull();
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n.ts';
import type { DisplayContext, Translate } from './licence-display.ts';
import {
  beginText,
  canActivate,
  deviceCountText,
  employeeCountText,
  endText,
  formatLicenceDate,
  isPermanent,
  loseActivateText,
  calendarTerm,
  stateText,
  termText,
  timeText,
} from './licence-display.ts';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h);
// as the licence tool issues them: from 00:00 of the first day to the last moment of the last day, on the licence
// calendar (UTC+08:00)
const campus = 480;
const first = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) - campus * 60_000;
const last = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d + 1) - campus * 60_000 - 1;

/** The viewer's clock: Macau by default. */
function context(language: string, utcDiff = campus): DisplayContext {
  return { t: i18n.getFixedT(language) as Translate, language, utcDiff };
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

describe('dates', () => {
  it('are the days the licence was issued for, for a viewer in any zone', () => {
    for (const viewer of [campus, -300, 0, 345, 540, 840, -720]) {
      expect(beginText(first(2026, 1, 1), context('en-US', viewer))).toBe('01/01/2026');
      expect(endText(last(2027, 12, 31), context('en-US', viewer))).toBe('12/31/2027');
      expect(beginText(first(2026, 1, 1), context('zh-CN', viewer))).toBe('2026/01/01');
      // the lose-activate time: the end, 30 days early
      expect(loseActivateText(last(2026, 5, 31), context('en-US', viewer))).toBe('05/01/2026');
    }
    expect(formatLicenceDate(first(2026, 4, 1), 'zh-CN')).toBe('2026/04/01');
    expect(loseActivateText(null, context('en-US'))).toBe('-');
  });

  it('the activation time is an instant, on the viewer’s clock', () => {
    // 2026-03-31 20:00 UTC is already 1 April in Macau (UTC+8), still 31 March in Bogotá (UTC-5)
    const time = utc(2026, 3, 31, 20);
    expect(timeText(time, context('en-US'))).toBe('04/01/2026, 04:00:00');
    expect(timeText(time, context('en-US', -300))).toBe('03/31/2026, 15:00:00');
    expect(timeText(time, context('zh-CN', 345))).toBe('2026/04/01 01:45:00');
    expect(timeText(null, context('en-US'))).toBe('-');
  });

  it('a missing begin or end follows the system permission', () => {
    for (const [language, text] of [
      ['en-US', 'Follow system permission'],
      ['zh-CN', '跟随系统授权'],
      ['zh-MO', '跟隨系統授權'],
    ] as const) {
      expect(beginText(null, context(language))).toBe(text);
      expect(endText(null, context(language))).toBe(text);
      expect(termText(null, null, context(language))).toBe(text);
    }
  });

  it('an end year of 2099 is permanent, on the licence calendar or in UTC', () => {
    expect(isPermanent(last(2099, 12, 31))).toBe(true);
    expect(isPermanent(utc(2099, 12, 31, 23))).toBe(true);
    expect(isPermanent(utc(2099, 1, 1))).toBe(true);
    expect(isPermanent(last(2098, 12, 31))).toBe(false);
    expect(endText(last(2099, 12, 31), context('en-US', -300))).toBe('Permanent');
    expect(endText(last(2099, 12, 31), context('zh-MO'))).toBe('永久');
    expect(termText(first(2026, 1, 1), last(2099, 12, 31), context('en-US'))).toBe('Permanent');
  });
});

describe('the term', () => {
  it('is the issued term in calendar years and days, leap days or not', () => {
    expect(calendarTerm(first(2026, 1, 1), last(2027, 12, 31))).toEqual({ years: 2, days: 0 });
    expect(calendarTerm(first(2027, 3, 1), last(2028, 2, 29))).toEqual({ years: 1, days: 0 });
    expect(calendarTerm(first(2026, 11, 24), last(2028, 11, 23))).toEqual({ years: 2, days: 0 });
    expect(calendarTerm(first(2026, 1, 1), last(2027, 1, 30))).toEqual({ years: 1, days: 30 });
    expect(calendarTerm(first(2026, 1, 1), last(2026, 1, 30))).toEqual({ years: 0, days: 30 });
    expect(calendarTerm(null, last(2027, 1, 30))).toBeNull();
  });

  it('reads as years plus days in the three languages, for a viewer in any zone', () => {
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('en-US'))).toBe('1 year 30 days');
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('zh-CN', -300))).toBe('1年30天');
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('zh-MO', 540))).toBe('1年30天');
    expect(termText(first(2026, 1, 1), last(2029, 1, 1), context('en-US'))).toBe('3 years 1 day');
    expect(termText(first(2026, 1, 1), last(2027, 12, 31), context('en-US'))).toBe('2 years');
    expect(termText(first(2026, 1, 1), last(2026, 1, 1), context('en-US'))).toBe('1 day');
  });
});

describe('counts, states', () => {
  const t = i18n.getFixedT('en-US') as Translate;
  it('employee count 9999999 and device count -1 are unlimited', () => {
    expect(employeeCountText(9999999, t)).toBe('Unlimited');
    expect(employeeCountText(500, t)).toBe('500');
    expect(deviceCountText(-1, t)).toBe('Unlimited');
    expect(deviceCountText(0, t)).toBe('0');
    expect(deviceCountText(12, i18n.getFixedT('zh-MO') as Translate)).toBe('12');
    expect(deviceCountText(-1, i18n.getFixedT('zh-MO') as Translate)).toBe('不限');
  });

  it('state and effectiveness codes have labels; an unknown code shows itself', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((code) => stateText(code, t))).toEqual(['Not activated', 'Not started', 'Expired', 'About to expire', 'In effect', 'Normal', 'Replaced']);
    expect(stateText(9, t)).toBe('9');
  });

  it('only a licence not yet activated can be activated', () => {
    expect(canActivate({ state: 0, effectiveness: 5 })).toBe(true);
    for (const state of [1, 2, 3, 4, 5, 6]) expect(canActivate({ state, effectiveness: 5 })).toBe(false);
    // an uploaded licence that has expired, or has not begun, is not offered: the server would refuse it
    expect(canActivate({ state: 0, effectiveness: 2 })).toBe(false);
    expect(canActivate({ state: 0, effectiveness: 1 })).toBe(false);
  });
});

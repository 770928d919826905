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
} from './licence-display.ts';

const utc = (y: number, m: number, d: number, h = 0) => Date.UTC(y, m - 1, d, h);

function context(language: string, utcDiff: number | null = 0): DisplayContext {
  return { t: i18n.getFixedT(language) as Translate, language, utcDiff };
}

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

describe('dates', () => {
  it('are shown on the user calendar (utcDiff minutes east of UTC)', () => {
    // 2026-03-31 20:00 UTC is already 1 April in Macau (UTC+8), still 31 March in New York (UTC-4)
    const time = utc(2026, 3, 31, 20);
    expect(formatLicenceDate(time, 'en-US', 480)).toBe('04/01/2026');
    expect(formatLicenceDate(time, 'en-US', -240)).toBe('03/31/2026');
    expect(formatLicenceDate(time, 'zh-CN', 480)).toBe('2026/04/01');
    expect(formatLicenceDate(time, 'en-US', 480, true)).toBe('04/01/2026, 04:00:00');
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
    expect(beginText(utc(2026, 1, 5), context('en-US'))).toBe('01/05/2026');
  });

  it('an end year of 2099 is permanent, also when the user calendar has moved it into 2100', () => {
    expect(isPermanent(utc(2099, 12, 31))).toBe(true);
    expect(isPermanent(utc(2099, 12, 31, 23), 480)).toBe(true);
    expect(isPermanent(utc(2098, 12, 31))).toBe(false);
    expect(endText(utc(2099, 12, 31), context('en-US'))).toBe('Permanent');
    expect(endText(utc(2099, 12, 31), context('zh-MO'))).toBe('永久');
    expect(termText(utc(2026, 1, 1), utc(2099, 12, 31), context('en-US'))).toBe('Permanent');
    expect(endText(utc(2027, 6, 30), context('en-US'))).toBe('06/30/2027');
  });

  it('the lose-activate time is shown 30 days early; none shows a dash', () => {
    expect(loseActivateText(utc(2026, 5, 31), context('en-US'))).toBe('05/01/2026');
    expect(loseActivateText(null, context('en-US'))).toBe('-');
  });
});

describe('the term', () => {
  // as the licence tool issues them: from 00:00 of the first day to the last moment of the last day, UTC+08:00
  const campus = 480;
  const first = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) - campus * 60_000;
  const last = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d + 1) - campus * 60_000 - 1;

  it('is the issued term in calendar years and days, leap days or not', () => {
    expect(calendarTerm(first(2026, 1, 1), last(2027, 12, 31), campus)).toEqual({ years: 2, days: 0 });
    expect(calendarTerm(first(2027, 3, 1), last(2028, 2, 29), campus)).toEqual({ years: 1, days: 0 });
    expect(calendarTerm(first(2026, 11, 24), last(2028, 11, 23), campus)).toEqual({ years: 2, days: 0 });
    expect(calendarTerm(first(2026, 1, 1), last(2027, 1, 30), campus)).toEqual({ years: 1, days: 30 });
    expect(calendarTerm(first(2026, 1, 1), last(2026, 1, 30), campus)).toEqual({ years: 0, days: 30 });
    expect(calendarTerm(null, last(2027, 1, 30), campus)).toBeNull();
  });

  it('reads as years plus days in the three languages', () => {
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('en-US', campus))).toBe('1 year 30 days');
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('zh-CN', campus))).toBe('1年30天');
    expect(termText(first(2026, 1, 1), last(2027, 1, 30), context('zh-MO', campus))).toBe('1年30天');
    expect(termText(first(2026, 1, 1), last(2029, 1, 1), context('en-US', campus))).toBe('3 years 1 day');
    expect(termText(first(2026, 1, 1), last(2027, 12, 31), context('en-US', campus))).toBe('2 years');
    expect(termText(first(2026, 1, 1), last(2026, 1, 1), context('en-US', campus))).toBe('1 day');
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

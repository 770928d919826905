import { describe, expect, it } from 'vitest';
import { decideForcedChange, noticeText, type ForcedChangeInput } from './forced-change.ts';
import * as storage from '../../lib/storage.ts';

const lockingTime = Date.UTC(2026, 0, 1, 4); // 04:00 UTC: January 1 in every time zone from UTC-4 to UTC+14
const base: ForcedChangeInput = { oprtPwdEditReason: null, lockingTime: null, thirdParty: false, licenceNormal: true };

describe('decideForcedChange (reading A)', () => {
  it('no reason: no prompt', () => {
    expect(decideForcedChange(base)).toBeNull();
    expect(decideForcedChange({ ...base, oprtPwdEditReason: undefined, lockingTime })).toBeNull();
  });

  it('reason 0: forced, first sign-in notice', () => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 0 })).toEqual({ forced: true, notice: { key: 'account.notice.firstSignIn' } });
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 0, lockingTime })).toEqual({ forced: true, notice: { key: 'account.notice.firstSignIn' } });
  });

  it('reason 3: forced, administrator reset notice', () => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 3 })).toEqual({ forced: true, notice: { key: 'account.notice.adminReset' } });
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 3, lockingTime })).toEqual({ forced: true, notice: { key: 'account.notice.adminReset' } });
  });

  it('reason 2 with a date: forced, expired on that date', () => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 2, lockingTime })).toEqual({
      forced: true,
      notice: { key: 'account.notice.expiredOn', date: lockingTime },
    });
  });

  it.each([null, undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY])('reason 2 without a date (%s): not forced, update now', (date) => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 2, lockingTime: date })).toEqual({ forced: false, notice: { key: 'account.notice.updateNow' } });
  });

  it('reason 1: not forced, update now, with or without a date', () => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 1 })).toEqual({ forced: false, notice: { key: 'account.notice.updateNow' } });
    expect(decideForcedChange({ ...base, oprtPwdEditReason: 1, lockingTime })).toEqual({ forced: false, notice: { key: 'account.notice.updateNow' } });
  });

  it.each([4, 9, -1, 1.5])('unknown reason %s: no prompt', (reason) => {
    expect(decideForcedChange({ ...base, oprtPwdEditReason: reason, lockingTime })).toBeNull();
  });

  describe.each([0, 1, 2, 3])('reason %s', (reason) => {
    it('third-party sign-in: no prompt', () => {
      expect(decideForcedChange({ ...base, oprtPwdEditReason: reason, lockingTime, thirdParty: true })).toBeNull();
      expect(decideForcedChange({ ...base, oprtPwdEditReason: reason, lockingTime: null, thirdParty: true })).toBeNull();
    });
    it('abnormal licence: no prompt', () => {
      expect(decideForcedChange({ ...base, oprtPwdEditReason: reason, lockingTime, licenceNormal: false })).toBeNull();
      expect(decideForcedChange({ ...base, oprtPwdEditReason: reason, lockingTime: null, licenceNormal: false })).toBeNull();
    });
  });

  it('every combination: forced exactly for 0, 3 and 2-with-date, prompts only when normal and first-party', () => {
    for (const reason of [null, 0, 1, 2, 3, 4]) {
      for (const date of [null, lockingTime]) {
        for (const thirdParty of [false, true]) {
          for (const licenceNormal of [false, true]) {
            const decision = decideForcedChange({ oprtPwdEditReason: reason, lockingTime: date, thirdParty, licenceNormal });
            const prompts = !thirdParty && licenceNormal && reason !== null && reason <= 3;
            expect(decision !== null, JSON.stringify({ reason, date, thirdParty, licenceNormal })).toBe(prompts);
            if (decision) expect(decision.forced).toBe(reason === 0 || reason === 3 || (reason === 2 && date !== null));
          }
        }
      }
    }
  });
});

describe('noticeText', () => {
  const t = (key: string, values?: { date: string }) => (values ? `${key}(${values.date})` : key);
  const midnightInMacau = Date.UTC(2025, 11, 31, 16, 0); // 2026-01-01 00:00 at UTC+8
  const expired = { key: 'account.notice.expiredOn', date: midnightInMacau } as const;

  it('names the moment of an expiry on the given clock, with its zone, in the language', () => {
    expect(noticeText(expired, t, 'en-US', 480)).toBe('account.notice.expiredOn(January 1, 2026 at 00:00 UTC+8)');
    expect(noticeText(expired, t, 'en-US', -300)).toBe('account.notice.expiredOn(December 31, 2025 at 11:00 UTC-5)');
    expect(noticeText(expired, t, 'zh-CN', 480)).toBe('account.notice.expiredOn(2026年1月1日 00:00 UTC+8)');
    expect(noticeText(expired, t, 'zh-MO', 345)).toBe('account.notice.expiredOn(2025年12月31日 21:45 UTC+5:45)');
    expect(noticeText(expired, t, 'not a tag!', 480)).toMatch(/2026.*UTC\+8/);
  });

  it("by default on the signed-in user's clock", () => {
    storage.accessToken.set('token');
    storage.utcDiff.set(480);
    expect(noticeText(expired, t, 'en-US')).toBe('account.notice.expiredOn(January 1, 2026 at 00:00 UTC+8)');
    localStorage.clear();
  });

  it('passes the other keys', () => {
    expect(noticeText({ key: 'account.notice.updateNow' }, t, 'en-US')).toBe('account.notice.updateNow');
  });
});

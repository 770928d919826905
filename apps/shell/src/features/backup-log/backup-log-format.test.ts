import { describe, expect, it } from 'vitest';
import { backupLogSearchBody, filterFromRange, formatBackupTime, formatFileSize, noFilter } from './backup-log-format.ts';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [13_002_342, '12.4 MB'],
    [51_380_224, '49.0 MB'],
    [187_654_321, '179.0 MB'],
    [1024 ** 3, '1.0 GB'],
    [3.75 * 1024 ** 4, '3.8 TB'],
    [5 * 1024 ** 6, '5120.0 PB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('a value that rounds up to 1024 moves to the next unit', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1.0 MB');
    expect(formatFileSize(1024 * 1023.96)).toBe('1.0 MB');
    expect(formatFileSize(1024 * 1023.94)).toBe('1023.9 KB');
  });

  it('nonsense shows a dash', () => {
    expect(formatFileSize(-1)).toBe('-');
    expect(formatFileSize(Number.NaN)).toBe('-');
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe('-');
  });
});

describe('formatBackupTime', () => {
  const time = new Date(2026, 10, 21, 2, 0, 37).getTime(); // local time, as the picker

  it('follows the language, to the second', () => {
    expect(formatBackupTime(time, 'en-US')).toMatch(/^Nov 21, 2026,? 2:00:37\sAM$/);
    expect(formatBackupTime(time, 'zh-CN')).toContain('2026年11月21日');
    expect(formatBackupTime(time, 'zh-CN')).toContain('02:00:37');
    expect(formatBackupTime(time, 'zh-MO')).toContain('2026年11月21日');
  });

  it('an unknown language tag falls back to the browser default; a bad time shows a dash', () => {
    expect(formatBackupTime(time, 'not a language!')).toContain('2026');
    expect(formatBackupTime(Number.NaN, 'en-US')).toBe('-');
  });
});

describe('filterFromRange', () => {
  const start = Date.UTC(2026, 10, 1, 0, 0, 0, 250);
  const end = Date.UTC(2026, 10, 21, 23, 59, 59, 10);

  it('start from the beginning of its second, end to the last millisecond of its second', () => {
    expect(filterFromRange([start, end])).toEqual({ startTime: Date.UTC(2026, 10, 1), endTime: Date.UTC(2026, 10, 21, 23, 59, 59, 999) });
  });

  it('an open end stays open; no range is no filter', () => {
    expect(filterFromRange([start, null])).toEqual({ startTime: Date.UTC(2026, 10, 1), endTime: null });
    expect(filterFromRange([null, end])).toEqual({ startTime: null, endTime: Date.UTC(2026, 10, 21, 23, 59, 59, 999) });
    expect(filterFromRange(null)).toEqual(noFilter);
    expect(filterFromRange(undefined)).toEqual(noFilter);
  });
});

describe('backupLogSearchBody', () => {
  it('without a filter: only pageInfo', () => {
    expect(backupLogSearchBody(noFilter, { index: 1, size: 10 })).toEqual({ pageInfo: { index: 1, size: 10 } });
  });

  it('with both bounds', () => {
    expect(backupLogSearchBody({ startTime: 1000, endTime: 5999 }, { index: 3, size: 50 })).toEqual({
      pageInfo: { index: 3, size: 50 },
      startTime: 1000,
      endTime: 5999,
    });
  });

  it('an open bound is left out, not sent as null', () => {
    const body = backupLogSearchBody({ startTime: null, endTime: 5999 }, { index: 1, size: 20 });
    expect(body).toEqual({ pageInfo: { index: 1, size: 20 }, endTime: 5999 });
    expect('startTime' in body).toBe(false);
    expect(JSON.stringify(backupLogSearchBody({ startTime: 0, endTime: null }, { index: 1, size: 10 }))).toBe('{"pageInfo":{"index":1,"size":10},"startTime":0}');
  });
});

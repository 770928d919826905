import { afterEach, describe, expect, it, vi } from 'vitest';
import * as storage from './storage.ts';
import { pickedOnViewerClock, viewerTime, viewerUtcDiff, viewerZoneName } from './time-format.ts';

const instant = Date.UTC(2026, 10, 24, 6, 5); // 2026-11-24 06:05 UTC

function signedIn(utcDiff: number | null) {
  storage.accessToken.set('token');
  storage.utcDiff.set(utcDiff);
}

/** A browser in a zone `utcDiff` minutes east of UTC (only the offset: the test machine's own zone stays). */
function browserAt(utcDiff: number) {
  vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-utcDiff);
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe("the viewer's clock", () => {
  it("signed in, it is the user's time zone from the user settings, whatever the browser's", () => {
    browserAt(-300);
    signedIn(480);
    expect(viewerUtcDiff(instant)).toBe(480);
    expect(viewerZoneName()).toBe('UTC+8');
    expect(viewerTime(instant, 'en-US', 'mediumDateMinute', { withZone: true })).toBe('Nov 24, 2026, 2:05 PM UTC+8');
    signedIn(345);
    expect(viewerTime(instant, 'en-US', 'dateTime', { withZone: true })).toBe('11/24/2026, 11:50:00 UTC+5:45');
  });

  it("signed out, or without the user's settings, it is the browser's zone", () => {
    browserAt(-300);
    storage.utcDiff.set(480); // left over, but nobody is signed in
    expect(viewerUtcDiff(instant)).toBe(-300);
    expect(viewerTime(instant, 'zh-CN', 'mediumDateMinute', { withZone: true })).toBe('2026年11月24日 01:05 UTC-5');
    signedIn(null);
    expect(viewerZoneName(instant)).toBe('UTC-5');
  });

  it('a picked date and time means that wall clock on the viewer’s clock, not the browser’s', () => {
    signedIn(480);
    // the picker's value: 2026-11-21 02:00:37 on the browser's clock, whatever zone the machine runs in
    const picked = new Date(2026, 10, 21, 2, 0, 37).getTime();
    expect(pickedOnViewerClock(picked)).toBe(Date.UTC(2026, 10, 20, 18, 0, 37));
    signedIn(-300);
    expect(pickedOnViewerClock(picked)).toBe(Date.UTC(2026, 10, 21, 7, 0, 37));
  });
});

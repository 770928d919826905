import { browserUtcDiff, formatTime, fromWallClock, zoneName, type TimeStyle } from '@campus/subapp-sdk/time';
import * as storage from './storage.ts';
import { i18n } from './i18n.ts';

/*
 * Times in the shell (issue 15, item 8), the one place that decides the clock; the rule itself (UTC stored, shown on
 * the viewer's clock, the zone named where it matters, calendar dates never shifted) and the formatting are shared with
 * the sub-apps in @campus/subapp-sdk/time.
 *
 * The viewer's clock: signed in, the user's own time zone from the user settings (GetUserSetParam timeZone.utcDiff,
 * stored at sign-in). It is the clock the sub-apps are given (globalConfig.utcDiff), so the shell and the sub-apps
 * show the same time, and a user whose settings name another zone than the computer's sees that zone. Signed out
 * (the login page's lock-out, the card screens), or when the settings could not be read, the browser's zone.
 */

/** Minutes east of UTC of the viewer's clock at `epochMs` (the browser's zone may change with daylight saving time). */
export function viewerUtcDiff(epochMs: number = Date.now()): number {
  const own = storage.isSignedIn() ? storage.utcDiff.get() : null;
  return own ?? browserUtcDiff(epochMs);
}

/** The viewer's zone as people read it: 'UTC+8'. For a column of times or a time filter. */
export function viewerZoneName(epochMs: number = Date.now()): string {
  return zoneName(viewerUtcDiff(epochMs));
}

/** A title that names the viewer's zone, for a column of times or a time filter: 'Backup time (UTC+8)'. */
export function titleInViewerZone(label: string): string {
  return i18n.t('common.inZone', { label, zone: viewerZoneName() });
}

/** An instant (epoch ms, UTC) on the viewer's clock, in `language`; `withZone` names the zone after it. */
export function viewerTime(epochMs: number, language: string, style: TimeStyle, { withZone = false } = {}): string {
  return formatTime(epochMs, { utcDiff: viewerUtcDiff(epochMs), language, style, withZone });
}

/**
 * The instant a date-time picker's value means on the viewer's clock. antd's pickers (dayjs) read and write the
 * browser's zone: `pickedMs` is the browser's instant of the wall clock the user picked, which is read here as that
 * wall clock on the viewer's clock.
 */
export function pickedOnViewerClock(pickedMs: number): number {
  const picked = new Date(pickedMs);
  const fields = {
    year: picked.getFullYear(),
    month: picked.getMonth() + 1,
    day: picked.getDate(),
    hour: picked.getHours(),
    minute: picked.getMinutes(),
    second: picked.getSeconds(),
    millisecond: picked.getMilliseconds(),
  };
  // the offset of the viewer's clock at about that instant (only the browser's zone varies)
  return fromWallClock(fields, viewerUtcDiff(pickedMs));
}

import { decideForcedChange, passwordEditReasons } from '@campus/contracts';
import type { ForcedChangeDecision, ForcedChangeInput, ForcedChangeNotice } from '@campus/contracts';
import { formatTime } from '@campus/subapp-sdk/time';
import { viewerUtcDiff } from '../../lib/time-format.ts';

export { decideForcedChange, passwordEditReasons };
export type { ForcedChangeDecision, ForcedChangeInput, ForcedChangeNotice };

type Translate = (key: ForcedChangeNotice['key'], values?: { date: string }) => string;

/**
 * The notice in the current language. An expiry names its moment on the viewer's clock (`utcDiff`, by default the
 * user's time zone: lib/time-format.ts) with the zone: 'January 1, 2026 at 00:00 UTC+8'.
 */
export function noticeText(notice: ForcedChangeNotice, t: Translate, language: string, utcDiff: number = notice.key === 'account.notice.expiredOn' ? viewerUtcDiff(notice.date) : 0): string {
  if (notice.key === 'account.notice.expiredOn') return t(notice.key, { date: formatTime(notice.date, { utcDiff, language, style: 'longDateMinute', withZone: true }) });
  return t(notice.key);
}

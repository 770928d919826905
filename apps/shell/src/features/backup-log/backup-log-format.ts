import { pickedOnViewerClock, viewerTime } from '../../lib/time-format.ts';
import type { BackupLogSearchRequest } from '@campus/contracts';

const sizeUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/**
 * A byte count for people: "512 B", "12.4 MB", "1.0 GB" (binary steps of 1024, one decimal above
 * bytes). A value that rounds up to 1024 moves to the next unit ("1.0 MB", never "1024.0 KB").
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '-';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (unit < sizeUnits.length - 1 && Math.round(value * 10) / 10 >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${sizeUnits[unit]}`;
}

/** Date and time to the second, in the user's language, on the viewer's clock (as the time filter); `withZone` names it. */
export function formatBackupTime(epochMs: number, language: string, withZone = false): string {
  return viewerTime(epochMs, language, 'mediumDateTime', { withZone });
}

/** The time filter as applied: inclusive epoch-ms bounds, either of which may be open. */
export interface BackupLogFilter {
  startTime: number | null;
  endTime: number | null;
}

export const noFilter: BackupLogFilter = { startTime: null, endTime: null };

/**
 * The filter from the range picker's two ends (epoch ms, or null when left open), as the viewer's clock reads them
 * (the picker itself works on the browser's: lib/time-format.ts). The picker works to the second: the start counts
 * from the beginning of its second, the end up to the last millisecond of its own, so a backup at 02:00:37.400 is
 * inside "… to 02:00:37".
 */
export function filterFromRange(range: readonly [number | null, number | null] | null | undefined): BackupLogFilter {
  const onViewerClock = (picked: number | null) => (picked === null ? null : pickedOnViewerClock(picked));
  const start = onViewerClock(range?.[0] ?? null);
  const end = onViewerClock(range?.[1] ?? null);
  return {
    startTime: start === null ? null : Math.floor(start / 1000) * 1000,
    endTime: end === null ? null : Math.floor(end / 1000) * 1000 + 999,
  };
}

/** The SearchBackupLog body: pageInfo always, a bound only when it is set. */
export function backupLogSearchBody(filter: BackupLogFilter, page: { index: number; size: number }): BackupLogSearchRequest {
  const body: BackupLogSearchRequest = { pageInfo: { index: page.index, size: page.size } };
  if (filter.startTime !== null) body.startTime = filter.startTime;
  if (filter.endTime !== null) body.endTime = filter.endTime;
  return body;
}

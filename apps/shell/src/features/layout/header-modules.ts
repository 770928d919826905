/** How many systems the header shows before the More overflow (spec §2 "Main layout"). */

/** The width the count is computed from changes only while the window is wider than this. */
export const minTrackedWidth = 1000;

/** floor((window width − 520) / 96) − 1, never below zero. */
export function headerModuleCount(width: number): number {
  return Math.max(0, Math.floor((width - 520) / 96) - 1);
}

/** The width to count with after a resize: the new one above 1000, else the last one kept. */
export function trackWidth(previous: number, next: number): number {
  return next > minTrackedWidth ? next : previous;
}

/** The first width: the window's when above 1000, else 1000. */
export function initialWidth(windowWidth: number): number {
  return trackWidth(minTrackedWidth, windowWidth);
}

/** The systems shown in the header and those under More, order kept. */
export function splitModules<T>(systems: readonly T[], count: number): { shown: T[]; more: T[] } {
  return { shown: systems.slice(0, count), more: systems.slice(count) };
}

import { matchesMedia, useMediaQuery } from './media-query.ts';

const query = '(prefers-reduced-motion: reduce)';

/**
 * Whether the user asked the system for less motion (an accessibility setting). antd's opening and closing
 * animations are then switched off, and global.css cuts CSS transitions short; it follows the setting live.
 */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery(query);
}

/** The same setting read once, for what renders outside React's tree (antd's static message on the login page). */
export function prefersReducedMotion(): boolean {
  return matchesMedia(query);
}

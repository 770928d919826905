import { normalisePath } from '../../lib/paths.ts';

/**
 * The one function that names a page tab: its path without query, hash or trailing slash. The tab store,
 * the active tab and the page cache all key by it, so one page is one tab whatever its query.
 */
export function tabKey(path: string): string {
  return normalisePath(path);
}

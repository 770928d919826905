import { isSameOriginPath } from './same-origin-path.ts';

/**
 * Why `value` is not an absolute http(s) URL a browser may be handed, or null when it is one.
 * `credentials` marks a value that must not be repeated in a message: it may hold a password.
 */
export function httpUrlProblem(value: string): { problem: string; credentials: boolean } | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { problem: 'must be an absolute http:// or https:// URL', credentials: false };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { problem: 'must start with http:// or https://', credentials: false };
  if (parsed.username || parsed.password) return { problem: 'must not contain a user name or password', credentials: true };
  if (/\s/.test(value)) return { problem: 'must not contain spaces', credentials: false };
  return null;
}

/**
 * Why `url` cannot be a sub-app entry (the folder of its index.html), or null when it can: a path on this server
 * or an absolute http(s) URL without credentials, query or fragment, ending in '/'. One rule for SUBAPP_ENTRIES
 * and for registered sub-systems.
 */
export function subAppEntryProblem(url: string): { problem: string; credentials: boolean } | null {
  if (url.startsWith('/')) {
    if (!isSameOriginPath(url) || /[\s?#]/.test(url)) return { problem: 'has a path that does not start with a single "/" or holds spaces, "?" or "#"', credentials: false };
  } else {
    const found = httpUrlProblem(url);
    if (found?.credentials) return { problem: `has a url that ${found.problem}`, credentials: true };
    if (found) return { problem: `has a url that is neither a path on this server ("/…") nor an absolute http(s) URL: it ${found.problem}`, credentials: false };
    const parsed = new URL(url);
    if (parsed.search || parsed.hash) return { problem: 'has a url with a query or fragment', credentials: false };
  }
  if (!url.endsWith('/')) return { problem: 'has a url that does not end with "/"', credentials: false };
  return null;
}

/** The origin of an entry on another server, or null for a path on this one. */
export function entryOrigin(url: string): string | null {
  return url.startsWith('/') ? null : new URL(url).origin;
}

/**
 * Whether a browser may load a sub-app's scripts and calls from `origin` (the content policy admits it on every
 * page): one exact origin, `https://host[:port]`, or `http://` only on loopback or on a host the operator lists
 * (SUBAPP_HTTP_HOSTS), whose traffic anyone on the way could otherwise rewrite.
 * - `wildcard`: it holds '*' (`http://*`, `https://*.example.com`), which a policy reads as many origins;
 * - `not-origin`: it is not an origin alone (a path, a query, another scheme);
 * - `http`: plain http on a host neither loopback nor listed.
 */
export type OriginProblem = 'wildcard' | 'not-origin' | 'http';

const loopbackHosts = new Set(['localhost', '[::1]']);

function isLoopback(hostname: string): boolean {
  return loopbackHosts.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function subAppOriginProblem(origin: string, httpHosts: readonly string[]): OriginProblem | null {
  if (origin.includes('*')) return 'wildcard';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'not-origin';
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return 'not-origin';
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !httpHosts.includes(url.hostname)) return 'http';
  return null;
}

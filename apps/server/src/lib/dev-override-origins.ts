/**
 * SUBAPP_DEV_OVERRIDES: where a developer's browser may load one sub-app from instead of its deployed build (his dev
 * server, named in his own browser's storage). Off by default: then the content policy admits no such origin and the
 * shell, told so by the server, drops a stored override. `on` admits the loopback origins on any port (a dev server
 * on the developer's own PC); a list admits exactly the origins it names.
 *
 * An origin pattern is `scheme://host[:port]`, the port may be `*`; plain http only on a loopback host (anyone on the
 * way could rewrite the code), no wildcard in the host, no path.
 */
export const loopbackDevOrigins: readonly string[] = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why `pattern` is not an origin pattern, or null when it is one. */
export function devOriginPatternProblem(pattern: string): string | null {
  const match = /^(https?):\/\/([^/:?#@*]+|\[[0-9a-f:.]+\])(?::(\d{1,5}|\*))?$/i.exec(pattern);
  if (!match) return 'is not an origin such as http://localhost:5173 or https://dev.example.com:* (scheme, host, optional port or *; no path)';
  const [, scheme = '', host = '', port] = match;
  if (port !== undefined && port !== '*' && (Number(port) < 1 || Number(port) > 65535)) return 'has a port outside 1-65535';
  if (scheme.toLowerCase() === 'http' && !loopbackHosts.has(host.toLowerCase())) return 'is plain http on a host other than loopback (use https)';
  return null;
}

/** The origins SUBAPP_DEV_OVERRIDES admits (empty: off), or what is wrong with it. */
export function parseDevOverrides(raw: string | null): { origins: readonly string[] } | { item: string; problem: string } {
  const value = raw?.trim() ?? '';
  if (value === '' || value.toLowerCase() === 'off') return { origins: [] };
  if (value.toLowerCase() === 'on') return { origins: loopbackDevOrigins };
  const origins: string[] = [];
  for (const item of value.split(',').map((part) => part.trim())) {
    const problem = devOriginPatternProblem(item);
    if (problem !== null) return { item, problem };
    origins.push(item.toLowerCase());
  }
  return { origins: [...new Set(origins)] };
}

/**
 * The content-policy sources of the admitted origins: each as it is (scripts, calls, styles, images) and, for the
 * connections a dev server's hot reload opens, its WebSocket twin (a policy source of http does not admit ws).
 */
export function devOverrideSources(origins: readonly string[]): { pages: string[]; sockets: string[] } {
  return { pages: [...origins], sockets: origins.map((origin) => origin.replace(/^http/, 'ws')) };
}

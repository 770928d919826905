/**
 * How a URL path differs from its plain form, or null when it is plain. A browser and the shell's router decode
 * percent-escapes and resolve "." and ".." before they match a path, so `/%2e%2e/login` or `/ext/../login` is
 * another path than it looks: such a path is refused, not checked as written.
 * - `climbs-out`: its ".." segments climb above "/";
 * - `not-plain`: it has "." or ".." segments (percent-encoded or not), an escape that decodes to another escape, or a
 *   malformed escape; `normal` is what it comes to (null for a malformed escape).
 */
export type PathFormProblem = { kind: 'climbs-out' } | { kind: 'not-plain'; normal: string | null };

export function pathFormProblem(value: string): PathFormProblem | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return { kind: 'not-plain', normal: null };
  }
  const segments = decoded.split(/[/\\]/).slice(1);
  const resolved: string[] = [];
  let climbsOut = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '.') {
      if (last) resolved.push('');
    } else if (segment === '..') {
      if (resolved.length === 0) climbsOut = true;
      else resolved.pop();
      if (last) resolved.push('');
    } else resolved.push(segment);
  });
  if (climbsOut) return { kind: 'climbs-out' };
  const normal = `/${resolved.join('/')}`;
  const doubleEncoded = /%[0-9a-f]{2}/i.test(decoded);
  return normal !== decoded.replaceAll('\\', '/') || doubleEncoded ? { kind: 'not-plain', normal } : null;
}

/** A path on this server: one leading '/', not '//' or '/\' (another host), no control characters or backslashes. */
export function isSameOriginPath(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f\u007f\\]/.test(value);
}

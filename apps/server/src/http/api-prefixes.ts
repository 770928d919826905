/**
 * Path prefixes that belong to the API (never answered with the shell's index.html).
 * `/tools` itself is a shell route; only `/tools/…` is the API.
 */
export const apiPrefixes = [
  '/user/',
  '/iot-login/',
  '/iot_login/',
  '/global/',
  '/auth/',
  '/system/',
  '/qy/api/',
  '/oss/',
  '/common-service/',
  '/tools/',
  '/docs',
  '/healthz',
] as const;

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return apiPrefixes.some((prefix) =>
    prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
  );
}

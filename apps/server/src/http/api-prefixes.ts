/**
 * Path prefixes that belong to the API (never answered with the shell's index.html).
 * `/tools` itself is a shell route; only `/tools/…` is the API. Sub-app files (`/subapps`, `/subapps/…`)
 * are never the shell either: a missing one is a 404, not the shell's page handed to qiankun as a sub-app.
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
  '/subapps',
  '/docs',
  '/healthz',
  '/livez',
  '/readyz',
  '/metrics',
] as const;

export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return apiPrefixes.some((prefix) =>
    prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
  );
}

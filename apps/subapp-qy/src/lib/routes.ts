/** The pages of the reference enterprise-data sub-app (base path /qy/). */
export const qyBase = '/qy/';
export const qyPaths = {
  home: '/qy/homePage',
  operateLog: '/qy/operate-log',
} as const;

export type QyPage = 'home' | 'operate-log' | 'unknown';

/** The page for a location pathname (a trailing slash is ignored). */
export function pageFor(pathname: string): QyPage {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === qyPaths.home) return 'home';
  if (path === qyPaths.operateLog) return 'operate-log';
  return 'unknown';
}

/**
 * Whether a path belongs to this app (its own /qy/ pages or the base path it is mounted under). The shell
 * changes the URL before it unmounts the app: a path of another system must not flash the "unknown page" panel.
 */
export function belongsToApp(pathname: string, basePath: string): boolean {
  const within = (base: string) => pathname === base.replace(/\/$/, '') || pathname.startsWith(base.endsWith('/') ? base : `${base}/`);
  return within(qyBase) || within(basePath || '/');
}

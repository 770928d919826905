import { homePath, isPublicPath, loginPath, loginWithFrom, normalisePath, notFoundPath } from '../../lib/paths.ts';

export interface GuardInput {
  /** Target pathname. */
  pathname: string;
  /** Target full path (pathname + search + hash), for fromPath. */
  fullPath: string;
  signedIn: boolean;
  licenceAbnormal: boolean;
  menusLoaded: boolean;
}

export type GuardDecision =
  /** Let the navigation through; `clearCurrentPage` when entering /home. */
  | { kind: 'proceed'; clearCurrentPage: boolean; rememberPath: boolean }
  | { kind: 'redirect'; to: string }
  /** Load the menus and permissions, then call `decideAfterMenus`. */
  | { kind: 'load-menus'; clearCurrentPage: boolean };

/** Paths that are never remembered as the previous page. */
const notRemembered = new Set(['/', loginPath, homePath, notFoundPath]);

function rememberable(pathname: string): boolean {
  return !notRemembered.has(normalisePath(pathname)) && !isPublicPath(pathname);
}

/** The route guard of spec §2, as a pure decision. */
export function decideGuard(input: GuardInput): GuardDecision {
  const path = normalisePath(input.pathname);
  if (path === '/') return { kind: 'redirect', to: homePath };
  if (isPublicPath(path)) return { kind: 'proceed', clearCurrentPage: false, rememberPath: false };

  if (input.signedIn || path === loginPath) {
    const clearCurrentPage = path === homePath;
    if (input.licenceAbnormal && path === homePath) return { kind: 'proceed', clearCurrentPage, rememberPath: false };
    if (!input.menusLoaded && path !== loginPath && input.signedIn) return { kind: 'load-menus', clearCurrentPage };
    return { kind: 'proceed', clearCurrentPage, rememberPath: input.signedIn && rememberable(path) };
  }

  if (path === homePath) return { kind: 'redirect', to: loginPath };
  return { kind: 'redirect', to: loginWithFrom(input.fullPath) };
}

/** After loading menus: continue when the path is routable, else /not-find. */
export function decideAfterMenus(pathname: string, isKnownPath: (path: string) => boolean): GuardDecision {
  if (isKnownPath(pathname)) return { kind: 'proceed', clearCurrentPage: false, rememberPath: rememberable(pathname) };
  return { kind: 'redirect', to: notFoundPath };
}

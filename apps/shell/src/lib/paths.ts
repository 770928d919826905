import { defaultHomePath } from '@campus/contracts';

export { defaultHomePath };

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

function isSafeRelative(value: string): boolean {
  if (!value.startsWith('/')) return false;
  if (value.startsWith('//')) return false;
  if (value.includes('\\')) return false;
  if (controlCharacters.test(value)) return false;
  // a scheme before the first slash cannot occur once the value starts with '/', but "/x:y" is fine;
  // reject anything the URL parser would treat as another origin
  try {
    const base = 'http://shell.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return false;
  } catch {
    return false;
  }
  return true;
}

/**
 * Accepts only a same-origin relative path (fromPath, toPath, url with isOut): it starts with a single '/',
 * is not protocol-relative ('//', '/\'), holds no scheme, backslash or control character, and stays so
 * after percent-decoding (up to three rounds, against double encoding). Returns the path as given, or null.
 */
export function safeRedirectTarget(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  if (value === '' || value !== raw) return null;
  let current = value;
  for (let round = 0; round < 3; round += 1) {
    if (!isSafeRelative(current)) return null;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return value;
    current = decoded;
  }
  return isSafeRelative(current) ? value : null;
}

/** Decodes once if the value looks encoded (a toPath taken from the query may be encoded twice). */
export function decodeTarget(raw: string): string {
  try {
    return raw.startsWith('%2F') || raw.startsWith('%2f') ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}

/** The path of the first segment: '/qy/homePage' → 'qy'. */
export function firstSegment(path: string): string {
  return path.split(/[?#]/)[0]!.split('/').filter(Boolean)[0] ?? '';
}

const publicExactPaths = new Set([
  '/not-login',
  '/error',
  '/tools',
  '/system-init',
  '/create-superuser',
  '/swiper-sys-secret',
  '/select-func',
  '/super-user-card',
  '/re-swipe-sys-sceret',
  '/swipe-master-card',
  '/swipe-master-card-gm',
  '/systemadmin-logincard',
  '/swipe-login',
  '/pwd-swipe-login',
  '/system-keycard',
]);

function normalise(pathname: string): string {
  const path = pathname.split(/[?#]/)[0] ?? '';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Paths the route guard lets through without sign-in (spec §2 "Route guard"). */
export function isPublicPath(pathname: string): boolean {
  const path = normalise(pathname);
  if (publicExactPaths.has(path)) return true;
  return /^\/key-card-[^/]+$/.test(path);
}

export const loginPath = '/login';
export const homePath = '/home';
export const notFoundPath = '/not-find';
export const errorPath = '/error';
export const notLoginPath = '/not-login';

/** /login?fromPath=<full path> */
export function loginWithFrom(fullPath: string): string {
  return `${loginPath}?fromPath=${encodeURIComponent(fullPath)}`;
}

/** /error?msg=<msg> */
export function errorWithMessage(msg: string): string {
  return msg ? `${errorPath}?msg=${encodeURIComponent(msg)}` : errorPath;
}

/** /home?toPath=<target> */
export function homeWithTarget(target: string | null): string {
  return target ? `${homePath}?toPath=${encodeURIComponent(target)}` : homePath;
}

export { normalise as normalisePath };

import { describe, expect, it } from 'vitest';
import { isPublicPath, safeRedirectTarget } from './paths.ts';

describe('safeRedirectTarget', () => {
  it.each(['/qy/homePage', '/qy/homePage?x=1', '/mj/mj-action-event#top', '/monitor/mj/view', '/a%20b'])('accepts %s', (path) => {
    expect(safeRedirectTarget(path)).toBe(path);
  });

  it.each([
    '//example.org',
    '/\\example.org',
    '\\\\example.org',
    'javascript:alert(1)',
    'https://x',
    'http://example.org/qy',
    'qy/homePage',
    '',
    ' /qy',
    '/qy\nx',
    '/qy\u0000',
    '%2F%2Fexample.org',
    '/%2Fexample.org',
    '/%5Cexample.org',
    '/%252F%252Fexample.org',
    'javascript%3Aalert(1)',
    '/%0d%0aSet-Cookie',
    '/%E0%A4%A',
  ])('rejects %j', (raw) => {
    expect(safeRedirectTarget(raw)).toBeNull();
  });

  it('rejects non-strings', () => {
    expect(safeRedirectTarget(null)).toBeNull();
    expect(safeRedirectTarget(undefined)).toBeNull();
    expect(safeRedirectTarget(42)).toBeNull();
  });
});

describe('isPublicPath', () => {
  it.each([
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
    '/key-card-swipe-login',
    '/key-card-system-init',
    '/key-card-swipe-master-card-gm',
    '/tools/',
  ])('%s needs no sign-in', (path) => {
    expect(isPublicPath(path)).toBe(true);
  });

  it.each(['/', '/home', '/login', '/not-find', '/qy/homePage', '/key-card', '/error/x'])('%s is protected (or the login page)', (path) => {
    expect(isPublicPath(path)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { decideAfterMenus, decideGuard, type GuardInput } from './guard-decision.ts';

const base: GuardInput = { pathname: '/qy/homePage', fullPath: '/qy/homePage', signedIn: true, licenceAbnormal: false, menusLoaded: true };

describe('decideGuard', () => {
  it('lets public paths through without sign-in', () => {
    for (const pathname of ['/not-login', '/error', '/tools', '/system-init', '/key-card-swipe-login', '/system-keycard', '/swipe-login']) {
      expect(decideGuard({ ...base, pathname, fullPath: pathname, signedIn: false, menusLoaded: false })).toEqual({
        kind: 'proceed',
        clearCurrentPage: false,
        rememberPath: false,
      });
    }
  });

  it('signed in, entering /home clears the current menu and page', () => {
    expect(decideGuard({ ...base, pathname: '/home', fullPath: '/home?toPath=%2Fqy' })).toEqual({ kind: 'proceed', clearCurrentPage: true, rememberPath: false });
  });

  it('licence abnormal and /home: proceeds without loading menus', () => {
    expect(decideGuard({ ...base, pathname: '/home', fullPath: '/home', menusLoaded: false, licenceAbnormal: true })).toEqual({
      kind: 'proceed',
      clearCurrentPage: true,
      rememberPath: false,
    });
  });

  it('licence abnormal and another path: menus still load', () => {
    expect(decideGuard({ ...base, menusLoaded: false, licenceAbnormal: true })).toEqual({ kind: 'load-menus', clearCurrentPage: false });
  });

  it('signed in, menus not loaded: load them (also for /home)', () => {
    expect(decideGuard({ ...base, menusLoaded: false })).toEqual({ kind: 'load-menus', clearCurrentPage: false });
    expect(decideGuard({ ...base, pathname: '/home', fullPath: '/home', menusLoaded: false })).toEqual({ kind: 'load-menus', clearCurrentPage: true });
  });

  it('signed in, menus loaded: proceeds and remembers the page', () => {
    expect(decideGuard(base)).toEqual({ kind: 'proceed', clearCurrentPage: false, rememberPath: true });
  });

  it('/ redirects to /home whether signed in or not (then /home decides)', () => {
    expect(decideGuard({ ...base, pathname: '/', fullPath: '/' })).toEqual({ kind: 'redirect', to: '/home' });
    expect(decideGuard({ ...base, pathname: '/', fullPath: '/', signedIn: false, menusLoaded: false })).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('never remembers /login', () => {
    expect(decideGuard({ ...base, pathname: '/login', fullPath: '/login' })).toMatchObject({ kind: 'proceed', rememberPath: false });
  });

  it('going to /login is let through without loading menus, signed in or not', () => {
    expect(decideGuard({ ...base, pathname: '/login', fullPath: '/login', menusLoaded: false })).toEqual({ kind: 'proceed', clearCurrentPage: false, rememberPath: false });
    expect(decideGuard({ ...base, pathname: '/login', fullPath: '/login?fromPath=%2Fx', signedIn: false, menusLoaded: false })).toEqual({
      kind: 'proceed',
      clearCurrentPage: false,
      rememberPath: false,
    });
  });

  it('not signed in: /home goes to /login', () => {
    expect(decideGuard({ ...base, pathname: '/home', fullPath: '/home?toPath=%2Fqy', signedIn: false })).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('not signed in: another protected path goes to /login with the full path as fromPath', () => {
    expect(decideGuard({ ...base, pathname: '/qy/operate-log', fullPath: '/qy/operate-log?day=1#top', signedIn: false, menusLoaded: false })).toEqual({
      kind: 'redirect',
      to: '/login?fromPath=%2Fqy%2Foperate-log%3Fday%3D1%23top',
    });
  });
});

describe('decideAfterMenus', () => {
  const known = (path: string) => path === '/qy/homePage' || path.includes('/monitor/mj/');
  it('continues to a known path', () => {
    expect(decideAfterMenus('/qy/homePage', known)).toEqual({ kind: 'proceed', clearCurrentPage: false, rememberPath: true });
    expect(decideAfterMenus('/monitor/mj/x', known)).toMatchObject({ kind: 'proceed' });
  });
  it('goes to /not-find for an unknown path', () => {
    expect(decideAfterMenus('/nope', known)).toEqual({ kind: 'redirect', to: '/not-find' });
  });
});

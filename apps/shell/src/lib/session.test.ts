import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@campus/contracts';
import * as storage from './storage.ts';
import { logout, onSignOut, providerLogoutTarget } from './session.ts';
import { installFakeApi } from '../../test/fake-api.ts';

let logoutAnswer: { data: unknown } | { status: number } = { data: null };

beforeEach(() => {
  logoutAnswer = { data: null };
  installFakeApi({ [apiPaths.logout]: () => logoutAnswer });
  storage.accessToken.set('tok');
});

afterEach(() => {
  localStorage.clear();
});

describe('onSignOut', () => {
  it('runs what registered once the session is cleared, until it unregisters', async () => {
    const seenToken: (string | null)[] = [];
    const reset = vi.fn(() => void seenToken.push(storage.accessToken.get()));
    const unregister = onSignOut(reset);
    await logout();
    expect(reset).toHaveBeenCalledTimes(1);
    expect(seenToken).toEqual([null]);
    unregister();
    storage.accessToken.set('tok-2');
    await logout();
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it('runs when the server refuses the logout call too (logged out locally regardless)', async () => {
    logoutAnswer = { status: 500 };
    const reset = vi.fn();
    const unregister = onSignOut(reset);
    await logout();
    expect(reset).toHaveBeenCalledTimes(1);
    expect(storage.accessToken.get()).toBeNull();
    unregister();
  });
});

describe('the identity provider\'s logout after Quit (issue 49)', () => {
  it('is answered by logout once the session is cleared, when the reply names one', async () => {
    logoutAnswer = { data: { providerLogoutUrl: 'https://idp.example.edu/logout?id_token_hint=x&post_logout_redirect_uri=https%3A%2F%2Fcampus.example%2Flogin' } };
    expect(await logout()).toBe('https://idp.example.edu/logout?id_token_hint=x&post_logout_redirect_uri=https%3A%2F%2Fcampus.example%2Flogin');
    expect(storage.accessToken.get()).toBeNull();
  });

  it('is null after a plain session, a refused logout or when nobody was signed in', async () => {
    expect(await logout()).toBeNull();
    storage.accessToken.set('tok');
    logoutAnswer = { status: 500 };
    expect(await logout()).toBeNull();
    logoutAnswer = { data: { providerLogoutUrl: 'https://idp.example.edu/logout' } };
    expect(await logout()).toBeNull();
  });

  it('takes only an http(s) address', () => {
    expect(providerLogoutTarget({ providerLogoutUrl: 'http://127.0.0.1:9000/cas/logout?service=x' })).toBe('http://127.0.0.1:9000/cas/logout?service=x');
    for (const reply of [null, {}, { providerLogoutUrl: '' }, { providerLogoutUrl: 'javascript:alert(1)' }, { providerLogoutUrl: '/login' }, { providerLogoutUrl: 42 }]) {
      expect(providerLogoutTarget(reply), JSON.stringify(reply)).toBeNull();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@campus/contracts';
import * as storage from './storage.ts';
import { logout, onSignOut } from './session.ts';
import { installFakeApi } from '../../test/fake-api.ts';

let logoutAnswer: { data: null } | { status: number } = { data: null };

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

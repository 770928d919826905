import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiPaths, codes } from '@campus/contracts';
import { registerNavigate, registerNotifier, resetRequestState } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { installFakeApi } from '../../../test/fake-api.ts';
import type { FakeRoutes, SeenCall } from '../../../test/fake-api.ts';
import { cardManagerCall, isTokenRefused } from './card-manager-calls.ts';
import { refusedToken, tokenOf } from './card-management.test-data.tsx';

const navigations: string[] = [];
const toasts: string[] = [];
let seen: SeenCall[] = [];
const serve = (routes: FakeRoutes) => (seen = installFakeApi(routes));

beforeEach(() => {
  navigations.length = 0;
  toasts.length = 0;
  registerNavigate((to) => navigations.push(to));
  registerNotifier({ error: (text) => toasts.push(text) });
  resetRequestState();
});
afterEach(() => localStorage.clear());

describe('the token of a card management call (spec §6)', () => {
  it('the master-card token when there is one, else the access token', async () => {
    serve({ [apiPaths.adminCardStateList]: () => ({ data: [] }) });
    storage.accessToken.set('session-1');
    storage.masterCardToken.set('master-1', 1800);
    await cardManagerCall(apiPaths.adminCardStateList);
    storage.masterCardToken.set(null);
    await cardManagerCall(apiPaths.adminCardStateList);
    expect(seen.map(tokenOf)).toEqual(['master-1', 'session-1']);
  });

  it('a refused master-card token is forgotten; the session stays and nobody is sent to the login page', async () => {
    serve({ [apiPaths.adminCardSearch]: refusedToken });
    storage.accessToken.set('session-1');
    storage.masterCardToken.set('master-1', 1800);
    const failure = await cardManagerCall(apiPaths.adminCardSearch, {}).catch((error: unknown) => error);
    expect(isTokenRefused(failure)).toBe(true);
    expect(storage.masterCardToken.get()).toBeNull();
    expect(storage.accessToken.get()).toBe('session-1');
    expect(navigations).toEqual([]);
  });

  it('a refused access token ends the session without the sign-out redirect (the card screen goes to the mother card)', async () => {
    serve({ [apiPaths.adminCardSearch]: refusedToken });
    storage.accessToken.set('session-1');
    const failure = await cardManagerCall(apiPaths.adminCardSearch, {}).catch((error: unknown) => error);
    expect(isTokenRefused(failure)).toBe(true);
    expect(storage.accessToken.get()).toBeNull();
    expect(navigations).toEqual([]);
  });

  it('a refusal is the server’s message, shown by the screen (no toast)', async () => {
    serve({ [apiPaths.adminCardLoss]: () => ({ envelope: { code: codes.cardActionNotAllowed, msg: 'Card DE000010 is lost', data: null } }) });
    storage.masterCardToken.set('master-1', 1800);
    await expect(cardManagerCall(apiPaths.adminCardLoss, { ids: ['a1'] })).rejects.toMatchObject({ code: codes.cardActionNotAllowed, message: 'Card DE000010 is lost' });
    expect(toasts).toEqual([]);
  });
});

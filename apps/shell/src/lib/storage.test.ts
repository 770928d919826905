import { describe, expect, it } from 'vitest';
import * as storage from './storage.ts';

describe('storage', () => {
  it('round-trips typed values', () => {
    storage.tenantSettings.set({ imgVerifyCode: true, openLdap: false, mjSystem: 21 } as never);
    expect(storage.tenantSettings.get()).toMatchObject({ mjSystem: 21 });
    storage.enabledSystems.set(['qy', 'kq']);
    expect(storage.enabledSystems.get()).toEqual(['qy', 'kq']);
    storage.cardLoginFlag.set(true);
    expect(storage.cardLoginFlag.get()).toBe(true);
    expect(storage.language.get()).toBe('zh-CN');
  });

  it('clearSession keeps the installation settings; with keepMasterCardToken the card screens keep their token', () => {
    storage.tenantSettings.set({ cardIssuerUrl: 'http://127.0.0.1:18189' } as never);
    storage.accessToken.set('t');
    storage.masterCardToken.set('m');
    storage.clearSession({ keepMasterCardToken: true });
    expect(storage.isSignedIn()).toBe(false);
    expect(storage.masterCardToken.get()).toBe('m');
    expect(storage.tenantSettings.get()).toMatchObject({ cardIssuerUrl: 'http://127.0.0.1:18189' });
    storage.clearSession();
    expect(storage.masterCardToken.get()).toBeNull();
    expect(storage.tenantSettings.get()).toMatchObject({ cardIssuerUrl: 'http://127.0.0.1:18189' });
  });

  it('clearSession clears the session but keeps the language and previous path', () => {
    storage.accessToken.set('t');
    storage.masterCardToken.set('m');
    storage.tenantCode.set('1001');
    storage.licenceAbnormal.set(true);
    storage.loginFlag.set(true);
    storage.thirdPartyLoginFlag.set(true);
    storage.menuInfo.set({ menuBaseList: [], menuList: [] });
    storage.currentPage.set('/qy/homePage');
    storage.language.set('zh-MO');
    storage.previousPath.set('/qy/operate-log');
    storage.pageTabs.set({ tabs: [{ key: '/qy/homePage' }] });
    storage.clearSession();
    expect(storage.pageTabs.get()).toBeNull();
    expect(storage.isSignedIn()).toBe(false);
    expect(storage.masterCardToken.get()).toBeNull();
    expect(storage.tenantCode.get()).toBeNull();
    expect(storage.licenceAbnormal.get()).toBe(false);
    expect(storage.loginFlag.get()).toBe(false);
    expect(storage.thirdPartyLoginFlag.get()).toBe(false);
    expect(storage.menuInfo.get()).toBeNull();
    expect(storage.currentPage.get()).toBeNull();
    expect(storage.language.get()).toBe('zh-MO');
    expect(storage.previousPath.get()).toBe('/qy/operate-log');
  });

  it('a stored cardDeviceToken that is not 16 to 64 of [A-Za-z0-9_-] is replaced', () => {
    sessionStorage.setItem('campus.cardDeviceToken', 'short');
    const token = storage.cardDeviceToken.get();
    expect(token).not.toBe('short');
    expect(token).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    sessionStorage.clear();
  });
});

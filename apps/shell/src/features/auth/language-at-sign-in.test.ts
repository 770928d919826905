import { beforeEach, describe, expect, it } from 'vitest';
import type { LanguageCode, MenuData } from '@campus/contracts';
import { apiPaths, loginTypes } from '@campus/contracts';
import { installFakeApi, type FakeAnswer, type SeenCall } from '../../../test/fake-api.ts';
import { i18n } from '../../lib/i18n.ts';
import { changeLanguage, logout } from '../../lib/session.ts';
import * as storage from '../../lib/storage.ts';
import { registerNotifier } from '../../lib/request.ts';
import { completeLogin } from './post-login.ts';

/** The user's setting as the server keeps it (GetUserSetParam / SetUserSetParam). */
let serverLanguage: LanguageCode;
let saveAnswer: () => FakeAnswer;
let seen: SeenCall[];

const menus: MenuData = {
  menuBaseList: [{ id: 'qy', appNo: 'qy', appId: 'qy', frontRoutingAddr: 'qy', label: 'QY', sortNum: 1 }],
  menuList: [{ id: 'p', path: '/qy/homePage', name: 'home', title: 'Home', sortNum: 1, isFuncRight: false, funcRightPerms: [], meta: { appNo: 'qy', parentId: null, isSide: true } }],
};

/** An answer held back until `resolve` is called (Promise.withResolvers is not in Node 20). */
function held() {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const signIn = () => completeLogin({ token: 'tok', tenantCode: '1001' }, { loginType: loginTypes.password });
const saves = () => seen.filter((call) => call.url === apiPaths.saveUserSettings).map((call) => call.body);

beforeEach(async () => {
  localStorage.clear();
  serverLanguage = 'zh-MO';
  saveAnswer = () => ({ data: null });
  registerNotifier({ error: () => undefined });
  seen = installFakeApi({
    [apiPaths.userSettings]: () => ({ data: { language: serverLanguage, timeZone: { utcDiff: 480 } } }),
    [apiPaths.saveUserSettings]: (call) => {
      const answer = saveAnswer();
      if ('data' in answer) serverLanguage = (call.body as { language: LanguageCode }).language;
      return answer;
    },
    [apiPaths.licencePermission]: () => ({ data: { isNormal: true } }),
    [apiPaths.tenantSettings]: (call) => ({ data: { systemName: `name in ${String(call.config.headers.get('language'))}`, mjSystem: 1 } }),
    [apiPaths.menus]: () => ({ data: menus }),
    [apiPaths.permissions]: () => ({ data: [{ appCode: 'qy', ids: [] }] }),
    [apiPaths.logout]: () => ({ data: null }),
  });
  // a first visit: the browser's language shows, nothing chosen yet
  await i18n.changeLanguage('en-US');
});

describe('the language at sign-in', () => {
  it("without a choice of this browser's own, the user's setting applies", async () => {
    await signIn();
    expect(i18n.language).toBe('zh-MO');
    expect(storage.language.get()).toBe('zh-MO');
    expect(saves()).toEqual([]);
  });

  it("a language chosen on the login page wins at sign-in and becomes the user's setting", async () => {
    await changeLanguage('zh-CN');
    expect(saves()).toEqual([]);
    await signIn();
    expect(i18n.language).toBe('zh-CN');
    expect(saves()).toEqual([{ language: 'zh-CN' }]);
    expect(serverLanguage).toBe('zh-CN');
  });

  it('a switch in the layout is kept for the login page after sign-out and for the next sign-in', async () => {
    await signIn();
    await changeLanguage('en-US');
    expect(saves()).toEqual([{ language: 'en-US' }]);
    await logout();
    expect(i18n.language).toBe('en-US');
    expect(storage.language.get()).toBe('en-US');
    await signIn();
    expect(i18n.language).toBe('en-US');
    // another browser: nothing stored there, the user's setting follows the user
    localStorage.clear();
    await i18n.changeLanguage('zh-CN');
    await signIn();
    expect(i18n.language).toBe('en-US');
  });

  it('a choice the server could not keep is kept here and saved at the next sign-in', async () => {
    await signIn();
    saveAnswer = () => ({ status: 503 });
    await changeLanguage('zh-CN');
    await logout();
    saveAnswer = () => ({ data: null });
    await signIn();
    expect(i18n.language).toBe('zh-CN');
    expect(serverLanguage).toBe('zh-CN');
  });

  it("asks for what is shown in a language without waiting for the user's settings; the user's language wins", async () => {
    const settingsHeld = held();
    const englishTenantHeld = held();
    const languageOf = (call: SeenCall) => call.config.headers.get('language');
    const calls = installFakeApi({
      [apiPaths.userSettings]: async () => {
        await settingsHeld.promise;
        return { data: { language: serverLanguage } };
      },
      [apiPaths.licencePermission]: () => ({ data: { isNormal: true } }),
      [apiPaths.tenantSettings]: async (call) => {
        // the answer in the language shown comes last of all
        if (languageOf(call) === 'en-US') await englishTenantHeld.promise;
        return { data: { systemName: `name in ${String(languageOf(call))}`, mjSystem: 1 } };
      },
      [apiPaths.menus]: () => ({ data: menus }),
      [apiPaths.permissions]: () => ({ data: [{ appCode: 'qy', ids: [] }] }),
      [apiPaths.userDetail]: () => ({ data: { name: 'Staff' } }),
      [apiPaths.systemLogos]: () => ({ data: [] }),
      [apiPaths.subAppRegistry]: () => ({ data: [] }),
    });
    const signedIn = signIn();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // before the settings answer: the tenant settings, the menus and the layout's data, in the language shown
    const early = calls.map((call) => `${call.url} ${String(languageOf(call))}`);
    for (const path of [apiPaths.tenantSettings, apiPaths.menus, apiPaths.userDetail, apiPaths.systemLogos, apiPaths.subAppRegistry]) {
      expect(early).toContain(`${path} en-US`);
    }
    settingsHeld.resolve();
    // the settings name zh-MO: asked again in it, and the sign-in ends in it
    await new Promise((resolve) => setTimeout(resolve, 0));
    englishTenantHeld.resolve();
    await signedIn;
    expect(i18n.language).toBe('zh-MO');
    expect(calls.filter((call) => call.url === apiPaths.tenantSettings).map(languageOf)).toEqual(['en-US', 'zh-MO']);
    expect(storage.tenantSettings.get()?.systemName).toBe('name in zh-MO');
  });

  it('a switch while signed in also fetches the tenant settings (system name) in the new language', async () => {
    await signIn();
    expect(storage.tenantSettings.get()?.systemName).toBe('name in zh-MO');
    await changeLanguage('en-US');
    expect(storage.tenantSettings.get()?.systemName).toBe('name in en-US');
  });
});

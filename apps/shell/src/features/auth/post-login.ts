import type { LanguageCode, LicencePermission, LoginInfo, LoginType, UserSettings } from '@campus/contracts';
import { apiPaths, defaultHomePath, isLanguageCode, loginTypes } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { applyMenus, fetchMenus } from '../../lib/menus.ts';
import { applyLanguage, currentLanguage, i18n } from '../../lib/i18n.ts';
import { requestTenantSettings, saveLanguageChoice } from '../../lib/session.ts';
import { prefetchLayoutData } from '../../lib/layout-data.ts';
import { errorWithMessage, homePath, safeRedirectTarget } from '../../lib/paths.ts';

export interface PostLoginOptions {
  loginType: LoginType;
  /** fromPath of the login URL. */
  fromPath?: string | null;
  /** isOut of the login URL: open `url` in a new window from /home. */
  isOut?: boolean;
  url?: string | null;
}

export type PostLoginOutcome =
  | { kind: 'navigate'; to: string }
  /** Login types 1–3 without any sub-system: stay on the login page and show the message. */
  | { kind: 'no-subsystem'; message: string };

/** Where /home should go after sign-in (spec §2 login page, §4 step 7). */
export function loginTarget(options: Pick<PostLoginOptions, 'fromPath' | 'isOut' | 'url'>): string {
  if (options.isOut) {
    const url = safeRedirectTarget(options.url);
    if (url) return `${homePath}?toPath=${encodeURIComponent(url)}&isOut=true`;
  }
  const target = safeRedirectTarget(options.fromPath) ?? safeRedirectTarget(storage.previousPath.get()) ?? defaultHomePath;
  return `${homePath}?toPath=${encodeURIComponent(target)}`;
}

/** Steps 1–7 of the post-login flow (spec §4). Navigation is left to the caller. */
export async function completeLogin(info: LoginInfo, options: PostLoginOptions): Promise<PostLoginOutcome> {
  storage.accessToken.set(info.token);
  storage.tenantCode.set(info.tenantCode);
  storage.licenceAbnormal.set(false);

  const userSettings = apiGet<UserSettings>(apiPaths.userSettings);
  // the language rule (lib/session.ts): a choice made in this browser and not saved yet wins and is saved now;
  // otherwise the user's setting applies
  const shownLanguage = currentLanguage();
  const chosenHere = storage.languageUnsaved.get() ? shownLanguage : null;
  const language = chosenHere
    ? Promise.resolve(chosenHere)
    : userSettings.then(
        (value) => (isLanguageCode(value?.language) ? value.language : shownLanguage),
        () => shownLanguage,
      );
  // what is shown in a language is asked for at once in the language shown now, beside the settings, and again in
  // the user's own language if the settings name another one: waiting for the settings first cost every sign-in a
  // round trip (issue 27)
  const inLanguage = <T,>(fetch: (target: LanguageCode) => Promise<T>): Promise<T> => {
    const early = fetch(shownLanguage);
    return language.then((target) => (target !== shownLanguage ? fetch(target) : early));
  };
  // menus are fetched beside the licence check and used only if it passes
  const menus = inLanguage((target) =>
    fetchMenus(target).then((fetched) => ({ ok: true as const, fetched }), (error: unknown) => ({ ok: false as const, error })),
  );
  const [settings, licence] = await Promise.allSettled([
    userSettings,
    apiGet<LicencePermission>(apiPaths.licencePermission),
    // the signed-in tenant's own settings (skin, logos, system name), which may differ from the login page's, in
    // the language the layout will show; only those are stored
    inLanguage(requestTenantSettings).then((tenant) => {
      if (tenant) storage.tenantSettings.set(tenant);
    }),
    chosenHere ? saveLanguageChoice(chosenHere) : null,
    // what the layout shows besides the menus, so its first render has it (lib/layout-data.ts)
    inLanguage(prefetchLayoutData),
  ]);
  if (settings.status === 'fulfilled') storage.utcDiff.set(settings.value?.timeZone?.utcDiff ?? null);
  await applyLanguage(await language);
  if (licence.status === 'rejected') {
    storage.accessToken.set(null);
    storage.tenantCode.set(null);
    throw licence.reason;
  }

  if (!licence.value.isNormal) {
    storage.licenceAbnormal.set(true);
    storage.loginFlag.set(true);
    return { kind: 'navigate', to: homePath };
  }

  const fetched = await menus;
  if (!fetched.ok) throw fetched.error;
  const applied = applyMenus(fetched.fetched);
  if (applied.systems.length === 0 || applied.permissions.length === 0) {
    const message = i18n.t('login.noSubsystem');
    if (options.loginType === loginTypes.thirdParty) {
      storage.clearSession();
      return { kind: 'navigate', to: errorWithMessage(message) };
    }
    storage.accessToken.set(null);
    storage.tenantCode.set(null);
    return { kind: 'no-subsystem', message };
  }

  storage.loginFlag.set(true);
  storage.cardLoginFlag.set(options.loginType === loginTypes.card);
  storage.thirdPartyLoginFlag.set(options.loginType === loginTypes.thirdParty);
  return { kind: 'navigate', to: loginTarget(options) };
}

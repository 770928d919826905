import type { LicencePermission, LoginInfo, LoginType, TenantSettings, UserSettings } from '@campus/contracts';
import { randomId } from '../../lib/crypto.ts';
import { apiPaths, defaultHomePath, isLanguageCode, loginTypes } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { loadMenus } from '../../lib/menus.ts';
import { applyLanguage, i18n } from '../../lib/i18n.ts';
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

  const [settings, licence, tenant] = await Promise.allSettled([
    apiGet<UserSettings>(apiPaths.userSettings),
    apiGet<LicencePermission>(apiPaths.licencePermission),
    // the signed-in tenant's own settings (skin, logos, system name), which may differ from the login page's
    apiGet<TenantSettings>(apiPaths.tenantSettings, { guid: randomId() }),
  ]);
  if (tenant.status === 'fulfilled' && tenant.value) storage.tenantSettings.set(tenant.value);
  if (settings.status === 'fulfilled' && isLanguageCode(settings.value?.language)) {
    await applyLanguage(settings.value.language);
  }
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

  const menus = await loadMenus();
  if (menus.systems.length === 0 || menus.permissions.length === 0) {
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

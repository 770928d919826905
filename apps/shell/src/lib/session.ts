import type { LanguageCode } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiPost } from './request.ts';
import * as storage from './storage.ts';
import { loadMenus, resetMenus } from './menus.ts';
import { applyLanguage } from './i18n.ts';

/**
 * Logout (spec §4): tell the server (a failure, e.g. a token the server no longer knows, still logs out),
 * then clear storage and menus. The caller navigates to /login.
 */
export async function logout(): Promise<void> {
  try {
    if (storage.accessToken.get()) await apiPost(apiPaths.logout);
  } catch {
    // logged out locally regardless
  }
  storage.clearSession();
  resetMenus();
}

/** Language change anywhere (spec §4): store it, switch texts and antd, and reload menus when signed in. */
export async function changeLanguage(language: LanguageCode): Promise<void> {
  await applyLanguage(language);
  if (storage.isSignedIn() && !storage.licenceAbnormal.get()) {
    try {
      await loadMenus();
    } catch {
      // the request layer already reported it; the old menus stay
    }
  }
}

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

/**
 * Language change anywhere (spec §4): when signed in, menus and permissions are fetched in the new language
 * first, so header, side menu and tabs relabel in the same render as the rest; then the language is
 * stored and applied (sub-apps hear it through i18n's languageChanged event).
 */
export async function changeLanguage(language: LanguageCode): Promise<void> {
  if (storage.isSignedIn() && !storage.licenceAbnormal.get()) {
    try {
      await loadMenus(language);
    } catch {
      // the request layer already reported it; the old menus stay
    }
  }
  await applyLanguage(language);
}

import type { LanguageCode } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiPost } from './request.ts';
import * as storage from './storage.ts';
import { loadMenus, resetMenus } from './menus.ts';
import { applyLanguage } from './i18n.ts';

const signOutListeners = new Set<() => void>();

/**
 * Registers what a sign-out resets (a feature's dialog store registers its own reset, so lib knows no
 * feature). Returns the way to unregister it.
 */
export function onSignOut(listener: () => void): () => void {
  signOutListeners.add(listener);
  return () => {
    signOutListeners.delete(listener);
  };
}

/**
 * Logout (spec §4): tell the server (a failure, e.g. a token the server no longer knows, still logs out),
 * then clear storage and menus, and reset what registered with onSignOut (every dialog closes). The caller
 * navigates to /login.
 */
export async function logout(): Promise<void> {
  try {
    if (storage.accessToken.get()) await apiPost(apiPaths.logout);
  } catch {
    // logged out locally regardless
  }
  storage.clearSession();
  resetMenus();
  for (const listener of signOutListeners) listener();
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

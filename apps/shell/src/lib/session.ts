import type { LanguageCode, LogoutReply, TenantSettings } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet, apiPost } from './request.ts';
import * as storage from './storage.ts';
import { loadMenus, resetMenus } from './menus.ts';
import { applyLanguage } from './i18n.ts';
import { randomId } from './crypto.ts';

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
 * Where the browser goes after Quit to end the identity provider's session too (RP-initiated logout, CAS /logout;
 * issue 49): the logout reply's providerLogoutUrl when it is an http(s) address, else null (the shell's /login).
 */
export function providerLogoutTarget(reply: unknown): string | null {
  const url = (reply as LogoutReply | null | undefined)?.providerLogoutUrl;
  if (typeof url !== 'string' || url === '') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * Logout (spec §4): tell the server (a failure, e.g. a token the server no longer knows, still logs out),
 * then clear storage and menus, and reset what registered with onSignOut (every dialog closes). The caller
 * navigates to /login, or to the identity provider's logout this answers (providerLogoutTarget).
 */
export async function logout(): Promise<string | null> {
  let providerLogout: string | null = null;
  try {
    if (storage.accessToken.get()) providerLogout = providerLogoutTarget(await apiPost<LogoutReply | null>(apiPaths.logout));
  } catch {
    // logged out locally regardless
  }
  storage.clearSession();
  resetMenus();
  for (const listener of signOutListeners) listener();
  return providerLogout;
}

/*
 * Which language shows (issue 15, item 7): one rule, here and in the post-login flow.
 * - The browser keeps the language in one place, `storage.language` (campus.language); lib/i18n.ts applies it before
 *   the first paint, so the login page, the layout and the sub-apps (props and broadcast) all show that one.
 * - A language chosen in the picker is the user's choice. Signed in, it is saved at once as the user's setting on the
 *   server (SetUserSetParam), so it follows the user to the next sign-in and to other browsers. Chosen while signed
 *   out (the login page), or when saving failed, it is marked unsaved (`storage.languageUnsaved`): the next sign-in
 *   keeps it, over the server's setting, and saves it.
 * - Otherwise the sign-in applies the user's setting from GetUserSetParam (spec §4 post-login step 1) and stores it.
 * The browser's own language only fills in before anything was chosen or signed in (lib/i18n.ts).
 */

/** The tenant's settings in `language`, or null when they could not be fetched; nothing is stored. */
export async function requestTenantSettings(language: LanguageCode): Promise<TenantSettings | null> {
  try {
    return (await apiGet<TenantSettings>(apiPaths.tenantSettings, { guid: randomId() }, { language })) ?? null;
  } catch {
    return null;
  }
}

/** The tenant's settings in `language`, stored: the system name is localised (login page, header, About, sub-apps). */
export async function fetchTenantSettings(language: LanguageCode): Promise<TenantSettings | null> {
  const settings = await requestTenantSettings(language);
  // without an answer the stored settings stay
  if (settings) storage.tenantSettings.set(settings);
  return settings;
}

/** Saves `language` as the signed-in user's setting; unsaved stays marked when the server could not keep it. */
export async function saveLanguageChoice(language: LanguageCode): Promise<void> {
  storage.languageUnsaved.set(true);
  try {
    await apiPost(apiPaths.saveUserSettings, { language });
    // a later choice, made while this one was on its way, is still to be saved
    if (storage.language.get() === language) storage.languageUnsaved.set(false);
  } catch {
    // kept here, and saved at the next sign-in
  }
}

/**
 * Language change anywhere (spec §4): when signed in, menus, permissions and the tenant settings are fetched in
 * the new language first, so header, side menu and tabs relabel in the same render as the rest; then the language
 * is stored and applied (sub-apps hear it through i18n's languageChanged event) and kept as the user's choice.
 */
export async function changeLanguage(language: LanguageCode): Promise<void> {
  const signedIn = storage.isSignedIn();
  const ahead: Promise<unknown>[] = [];
  if (signedIn && !storage.licenceAbnormal.get()) {
    ahead.push(
      loadMenus(language).catch(() => {
        // the request layer already reported it; the old menus stay
      }),
    );
  }
  if (signedIn) ahead.push(fetchTenantSettings(language));
  await Promise.all(ahead);
  await applyLanguage(language);
  if (signedIn) await saveLanguageChoice(language);
  else storage.languageUnsaved.set(true);
}

import { create } from 'zustand';
import { apiPaths, type SubAppDevOverridePolicy } from '@campus/contracts';
import { apiGet, notifyError } from '../../lib/request.ts';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';
import type { SubAppDefinition } from '../../lib/sub-apps.ts';

/**
 * A developer's override: one sub-app loaded from his dev server instead of its deployed build, in his browser only
 * (like single-spa's import-map overrides). It is kept in this browser's storage and applies only when the server
 * allows the entry's origin (SUBAPP_DEV_OVERRIDES, read from the server at each page view): the server's content
 * policy admits those origins and no others, so the shell's check is what tells the developer, not what protects.
 */
export interface DevOverride {
  /** The sub-app's name for the loader: its entry folder (`qy`, `monitor/mj`). */
  app: string;
  /** The entry URL on the dev server (what qiankun fetches as the sub-app's index.html). */
  entry: string;
}

/** Why a stored override was dropped: the server allows none, or not this origin; no such sub-app; not readable. */
export type DevOverrideRefusal = 'off' | 'origin' | 'app' | 'invalid';

export type DevOverrideOutcome = { kind: 'none' } | { kind: 'applied'; override: DevOverride } | { kind: 'refused'; override: DevOverride | null; reason: DevOverrideRefusal };

/** The stored override, or 'invalid' when something unreadable is stored. */
export function readDevOverride(): DevOverride | null | 'invalid' {
  const raw = storage.subAppDevOverride.get();
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<DevOverride> | null;
    if (typeof value?.app === 'string' && typeof value.entry === 'string' && value.app !== '') return { app: value.app, entry: value.entry };
  } catch {
    // not JSON
  }
  return 'invalid';
}

export function storeDevOverride(override: DevOverride | null): void {
  storage.subAppDevOverride.set(override === null ? null : JSON.stringify(override));
}

/**
 * Whether `entry` is an http(s) URL without credentials whose origin one of `patterns` names: `scheme://host[:port]`,
 * a port of `*` standing for any port (a pattern without a port stands for the scheme's default one).
 */
export function entryAllowed(entry: string, patterns: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return false;
  return patterns.some((pattern) => {
    const anyPort = pattern.endsWith(':*');
    let allowed: URL;
    try {
      allowed = new URL(anyPort ? pattern.slice(0, -2) : pattern);
    } catch {
      return false;
    }
    return allowed.protocol === url.protocol && allowed.hostname === url.hostname && (anyPort || allowed.port === url.port);
  });
}

/** The applications with the override's entry in place of its app's, when `allowedOrigins` admit it. */
export function applyDevOverride(
  apps: SubAppDefinition[],
  stored: DevOverride | null | 'invalid',
  allowedOrigins: readonly string[],
): { apps: SubAppDefinition[]; outcome: DevOverrideOutcome } {
  if (stored === null) return { apps, outcome: { kind: 'none' } };
  if (stored === 'invalid') return { apps, outcome: { kind: 'refused', override: null, reason: 'invalid' } };
  if (allowedOrigins.length === 0) return { apps, outcome: { kind: 'refused', override: stored, reason: 'off' } };
  if (!entryAllowed(stored.entry, allowedOrigins)) return { apps, outcome: { kind: 'refused', override: stored, reason: 'origin' } };
  if (!apps.some((app) => app.name === stored.app)) return { apps, outcome: { kind: 'refused', override: stored, reason: 'app' } };
  return {
    apps: apps.map((app) => (app.name === stored.app ? { ...app, entry: stored.entry, installed: true } : app)),
    outcome: { kind: 'applied', override: stored },
  };
}

/**
 * The cookie that asks the server for this browser's pages with the dev origins in their content policy (the server
 * gives them only when it allows overrides; everyone else's pages keep the strict policy). Set while an allowed
 * override is stored, removed with it.
 */
const devBrowserCookie = 'campus-dev-override';

export function devBrowserCookieSet(): boolean {
  return document.cookie.split(';').some((pair) => pair.trim() === `${devBrowserCookie}=1`);
}

function setDevBrowserCookie(on: boolean): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = on ? `${devBrowserCookie}=1; path=/; SameSite=Strict${secure}` : `${devBrowserCookie}=; path=/; max-age=0; SameSite=Strict${secure}`;
}

/** A page view without an override: a cookie left from one (signed out since) is removed. */
export function dropStaleDevBrowserCookie(): void {
  if (devBrowserCookieSet()) setDevBrowserCookie(false);
}

/** The override in effect in this page view (the header's badge), null when none. */
export const useDevOverrideStore = create<{ active: DevOverride | null }>(() => ({ active: null }));

/** Turns the override off: forgotten in this browser, and the page loads again with the deployed build. */
export function turnOffDevOverride(): void {
  storeDevOverride(null);
  setDevBrowserCookie(false);
  window.location.reload();
}

/** What the developer reads when his stored override is dropped (in the shell's language). */
function refusalMessage(outcome: Extract<DevOverrideOutcome, { kind: 'refused' }>): string {
  const values = { app: outcome.override?.app ?? '', entry: outcome.override?.entry ?? '' };
  switch (outcome.reason) {
    case 'off':
      return i18n.t('subApps.devOverride.refusedOff', values);
    case 'origin':
      return i18n.t('subApps.devOverride.refusedOrigin', values);
    case 'app':
      return i18n.t('subApps.devOverride.refusedApp', values);
    case 'invalid':
      return i18n.t('subApps.devOverride.refusedInvalid', values);
  }
}

/**
 * The applications of this page view with the stored override applied, once the server said which dev origins it
 * allows; an override it does not allow is removed from this browser with a message. When the server cannot be
 * asked, the deployed builds load and the override stays stored for the next page view.
 */
export async function withDevOverride(apps: SubAppDefinition[]): Promise<SubAppDefinition[]> {
  const stored = readDevOverride();
  if (stored === null) {
    dropStaleDevBrowserCookie();
    return apps;
  }
  let origins: readonly string[];
  try {
    origins = (await apiGet<SubAppDevOverridePolicy>(apiPaths.subAppDevOverrides)).origins;
  } catch {
    return apps;
  }
  const result = applyDevOverride(apps, stored, origins);
  if (result.outcome.kind === 'refused') {
    storeDevOverride(null);
    setDevBrowserCookie(false);
    notifyError(refusalMessage(result.outcome));
  } else if (!devBrowserCookieSet()) {
    // this page came with the strict policy, which refuses the dev server: the page again, with the cookie (when the
    // browser refuses cookies, the loading fails as refused by the policy, and says so)
    setDevBrowserCookie(true);
    if (devBrowserCookieSet()) {
      window.location.reload();
      return new Promise<never>(() => undefined);
    }
  }
  useDevOverrideStore.setState({ active: result.outcome.kind === 'applied' ? result.outcome.override : null });
  return result.apps;
}

import type { LanguageCode, MenuData, TenantSettings } from '@campus/contracts';
import { accessTokenStorageKey, languageStorageKey, toLanguage } from '@campus/contracts';
import { randomId } from './crypto.ts';

/**
 * The one place that knows the shell's localStorage keys (spec §3 "Locally stored items").
 * Sub-apps and tests read these names; do not rename them without a migration.
 */
export const storageKeys = {
  token: accessTokenStorageKey,
  masterCardToken: 'campus.masterCardToken',
  /** Epoch ms the master-card token stops being good (MasterCardToken.expiresIn after the swipe). */
  masterCardTokenExpiry: 'campus.masterCardTokenExpiry',
  tenantCode: 'campus.tenantCode',
  tenantSettings: 'campus.tenantSettings',
  licenceAbnormal: 'campus.licenceAbnormal',
  menuInfo: 'campus.menuInfo',
  enabledSystems: 'campus.enabledSystems',
  loginFlag: 'campus.isLogin',
  cardLoginFlag: 'campus.isCardLogin',
  thirdPartyLoginFlag: 'campus.isThirdPartyLogin',
  language: languageStorageKey,
  /** '1' while the language chosen in this browser is not yet the user's setting on the server (see lib/session.ts). */
  languageUnsaved: 'campus.languageUnsaved',
  previousPath: 'campus.previousPath',
  currentMenu: 'campus.currentMenu',
  currentPage: 'campus.currentPage',
  utcDiff: 'campus.utcDiff',
  /** antd's theme as last derived from the skin's seed tokens (lib/remembered-algorithm.ts): not session data. */
  antdThemeTokens: 'campus.antdThemeTokens',
  /**
   * A developer's override of one sub-app's entry, `{"app": "qy", "entry": "http://localhost:5173/…"}`
   * (features/sub-apps/dev-override.ts): kept in his browser only, dropped at sign-out like the session.
   */
  subAppDevOverride: 'campus.subAppDevOverride',
} as const;

type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

function read(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: StorageKey, value: string | null): void {
  try {
    if (value === null || value === '') localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // storage full or disabled: the shell keeps working for this page view
  }
}

function readJson<T>(key: StorageKey): T | null {
  const raw = read(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function writeJson(key: StorageKey, value: unknown): void {
  write(key, value === null || value === undefined ? null : JSON.stringify(value));
}

function flag(key: StorageKey) {
  return {
    get: (): boolean => read(key) === '1',
    set: (on: boolean): void => write(key, on ? '1' : null),
  };
}

function text(key: StorageKey) {
  return {
    get: (): string | null => read(key),
    set: (value: string | null): void => write(key, value),
  };
}

export const accessToken = text(storageKeys.token);
export const subAppDevOverride = text(storageKeys.subAppDevOverride);
/**
 * The master-card token of spec §6 (set-up and card-management calls). `get` answers null once it has
 * expired, so the entry checks send the operator to swipe the mother card again before a call fails.
 */
export const masterCardToken = {
  get: (): string | null => {
    const token = read(storageKeys.masterCardToken);
    if (token === null) return null;
    const expiry = Number(read(storageKeys.masterCardTokenExpiry) ?? NaN);
    if (Number.isFinite(expiry) && Date.now() >= expiry) {
      write(storageKeys.masterCardToken, null);
      write(storageKeys.masterCardTokenExpiry, null);
      return null;
    }
    return token;
  },
  /** Stores the token, good for `expiresInSeconds` when given (else until the server refuses it); null forgets it. */
  set: (value: string | null, expiresInSeconds?: number): void => {
    write(storageKeys.masterCardToken, value);
    const expiry = value && expiresInSeconds !== undefined && expiresInSeconds > 0 ? String(Date.now() + expiresInSeconds * 1000) : null;
    write(storageKeys.masterCardTokenExpiry, expiry);
  },
};
export const tenantCode = text(storageKeys.tenantCode);
export const previousPath = text(storageKeys.previousPath);
export const currentMenu = text(storageKeys.currentMenu);
export const currentPage = text(storageKeys.currentPage);

export const licenceAbnormal = flag(storageKeys.licenceAbnormal);
export const loginFlag = flag(storageKeys.loginFlag);
export const cardLoginFlag = flag(storageKeys.cardLoginFlag);
export const thirdPartyLoginFlag = flag(storageKeys.thirdPartyLoginFlag);

/** The user's time zone from the user settings: minutes east of UTC. */
export const utcDiff = {
  get: (): number | null => {
    const raw = read(storageKeys.utcDiff);
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) ? value : null;
  },
  set: (value: number | null): void => write(storageKeys.utcDiff, value === null ? null : String(value)),
};

export const tenantSettings = {
  get: (): TenantSettings | null => readJson<TenantSettings>(storageKeys.tenantSettings),
  set: (value: TenantSettings | null): void => writeJson(storageKeys.tenantSettings, value),
};

export const menuInfo = {
  get: (): MenuData | null => readJson<MenuData>(storageKeys.menuInfo),
  set: (value: MenuData | null): void => writeJson(storageKeys.menuInfo, value),
};

/** appNo of every sub-system the user may use. */
export const enabledSystems = {
  get: (): string[] => readJson<string[]>(storageKeys.enabledSystems) ?? [],
  set: (value: string[] | null): void => writeJson(storageKeys.enabledSystems, value),
};

/**
 * The interface language: the one place it is kept in the browser (read before the first paint by lib/i18n.ts).
 * The rule between this and the user's setting on the server is in lib/session.ts.
 */
export const language = {
  /** The stored language, or null when the user never picked one. */
  getStored: (): LanguageCode | null => {
    const raw = read(storageKeys.language);
    return raw === null ? null : toLanguage(raw);
  },
  get: (): LanguageCode => toLanguage(read(storageKeys.language)),
  set: (value: LanguageCode): void => write(storageKeys.language, value),
};

/** Set when the language was chosen here and the server does not hold it yet as the user's setting. */
export const languageUnsaved = flag(storageKeys.languageUnsaved);

/** antd's theme as last derived (lib/remembered-algorithm.ts): the seed tokens it came from, and its tokens. */
export const rememberedTheme = {
  get: <Tokens extends object>(): { seed: string; tokens: Tokens } | null => readJson(storageKeys.antdThemeTokens),
  set: (value: { seed: string; tokens: object }): void => writeJson(storageKeys.antdThemeTokens, value),
};

/** Keys kept in sessionStorage: they last for the browser tab's session only. */
export const sessionKeys = {
  pageTabs: 'campus.pageTabs',
  /** The tab session's cardDeviceToken, which pairs it with the card issuer (lib/cards/card-issuer.ts). */
  cardDeviceToken: 'campus.cardDeviceToken',
} as const;

/** The open page tabs (spec §2): kept for the browser session, cleared on logout. */
export const pageTabs = {
  get: (): unknown => {
    try {
      const raw = sessionStorage.getItem(sessionKeys.pageTabs);
      return raw === null ? null : (JSON.parse(raw) as unknown);
    } catch {
      return null;
    }
  },
  set: (value: unknown): void => {
    try {
      if (value === null || value === undefined) sessionStorage.removeItem(sessionKeys.pageTabs);
      else sessionStorage.setItem(sessionKeys.pageTabs, JSON.stringify(value));
    } catch {
      // storage full or disabled: tabs live in memory for this page view
    }
  },
};

/**
 * This browser session's cardDeviceToken (spec §7): one per tab session, kept across reloads of the tab and across
 * sign-outs (the pairing with the card issuer is the tab's, not the user's).
 */
export const cardDeviceToken = {
  get: (): string => {
    try {
      const stored = sessionStorage.getItem(sessionKeys.cardDeviceToken);
      if (stored && /^[A-Za-z0-9_-]{16,64}$/.test(stored)) return stored;
      const made = randomId().replace(/[^A-Za-z0-9]/g, '');
      sessionStorage.setItem(sessionKeys.cardDeviceToken, made);
      return made;
    } catch {
      return 'campus-shell-device-session';
    }
  },
};

/** True when an access token is stored. */
export function isSignedIn(): boolean {
  return Boolean(accessToken.get());
}

/**
 * What logout and the sign-out codes of §8 clear: the session and everything derived from it.
 * The language (and whether it still has to be saved as the user's setting) and the remembered previous path
 * survive, so the login page keeps the language and the next sign-in returns there; so do the
 * installation's settings (a public answer, which the card screens read the card issuer's address from) and the
 * theme derived from its skin.
 * `keepMasterCardToken`: a refused access token says nothing about the master-card token of the card screens
 * (another credential, perhaps in use in another tab), which then stays.
 */
export function clearSession({ keepMasterCardToken = false } = {}): void {
  const keep = new Set<string>([storageKeys.language, storageKeys.languageUnsaved, storageKeys.previousPath, storageKeys.tenantSettings, storageKeys.antdThemeTokens]);
  if (keepMasterCardToken) {
    keep.add(storageKeys.masterCardToken);
    keep.add(storageKeys.masterCardTokenExpiry);
  }
  for (const key of Object.values(storageKeys)) {
    if (!keep.has(key)) write(key, null);
  }
  pageTabs.set(null);
}

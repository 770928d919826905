import type { ShellLanguage } from './shared-state.ts';

/** The interface languages, in the order the shell lists them. */
export const shellLanguages: readonly ShellLanguage[] = ['zh-CN', 'zh-MO', 'en-US'];

/** The spec's fallback language (spec §1). */
export const fallbackShellLanguage: ShellLanguage = 'zh-CN';

export function isShellLanguage(value: unknown): value is ShellLanguage {
  return typeof value === 'string' && (shellLanguages as readonly string[]).includes(value);
}

/**
 * A supported language from a stored value or a browser tag (navigator.language): exact codes first, then
 * Traditional Chinese tags (zh-TW, zh-HK, zh-MO, zh-Hant…) → zh-MO, other Chinese → zh-CN, English → en-US,
 * anything else → the fallback.
 */
export function toShellLanguage(value: unknown): ShellLanguage {
  if (isShellLanguage(value)) return value;
  if (typeof value !== 'string') return fallbackShellLanguage;
  const tag = value.trim().toLowerCase().replace(/_/g, '-');
  if (tag.startsWith('zh')) return /^zh-(hant|tw|hk|mo)(-|$)/.test(tag) ? 'zh-MO' : 'zh-CN';
  if (tag === 'en' || tag.startsWith('en-')) return 'en-US';
  return fallbackShellLanguage;
}

export type ShellLanguageListener = (language: ShellLanguage) => void;

/**
 * The current language and who wants to hear about changes: framework-free, shaped for React's
 * useSyncExternalStore (`subscribe` / `get`), see `@campus/subapp-sdk/react`.
 */
export interface ShellLanguageStore {
  get: () => ShellLanguage;
  /** Sets the language and tells the listeners when it changed. */
  set: (language: ShellLanguage) => void;
  /** Adds a listener; returns the function that removes it. */
  subscribe: (listener: ShellLanguageListener) => () => void;
  /** Removes every listener (unmount). */
  clear: () => void;
  /** How many listeners are registered (tests and leak checks). */
  listenerCount: () => number;
}

export function createShellLanguageStore(initial: ShellLanguage): ShellLanguageStore {
  let current = initial;
  const listeners = new Set<ShellLanguageListener>();
  return {
    get: () => current,
    set: (language) => {
      if (language === current) return;
      current = language;
      for (const listener of [...listeners]) listener(language);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear: () => listeners.clear(),
    listenerCount: () => listeners.size,
  };
}

import type { LanguageCode } from '@campus/contracts';
import { fallbackLanguage, languageCodes } from '@campus/contracts';
import * as storage from './storage.ts';
import { matchBrowserLanguage } from './browser-language.ts';
import { createTranslator } from './translator.ts';

// each language's texts are a chunk of their own, fetched when it is first shown (loadLanguage)
export const i18n = createTranslator({
  // the user's own pick, else the browser's preference, else the fallback (zh-CN)
  language: storage.language.getStored() ?? matchBrowserLanguage(typeof navigator === 'undefined' ? [] : navigator.languages) ?? fallbackLanguage,
  fallbackLanguage,
  supportedLanguages: languageCodes,
});

/** The page's language for the browser and assistive technology: <html lang> follows the interface language. */
function markDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

// before anything renders (main.tsx imports this module first): index.html ships lang="zh-CN", and the first paint
// must already be in the stored language, page and <html lang> alike
markDocumentLanguage(i18n.language);

const languageBundles = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*.json');

/** Fetches a language's texts once (a page shows only one language; the others come when chosen). */
export async function loadLanguage(language: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const load = languageBundles[`../locales/${language}.json`];
  if (!load) throw new Error(`no texts for ${language}`);
  i18n.addResourceBundle(language, 'translation', (await load()).default, true, false);
}

/**
 * The first language's texts: main.tsx renders once they are in (the route's code loads meanwhile). A failed fetch
 * (a new release deployed while the page was open) is left to the chunk recovery; the texts then show their keys.
 */
export const firstLanguageReady: Promise<void> = loadLanguage(currentLanguage()).catch(() => undefined);

/** The language names as shown in the picker, each in its own language. */
export const languageOptions: { code: LanguageCode; label: string }[] = [
  { code: 'en-US', label: 'English' },
  { code: 'zh-CN', label: '简体中文' },
  { code: 'zh-MO', label: '繁體中文' },
];

export function currentLanguage(): LanguageCode {
  const lng = i18n.language;
  return (languageCodes as readonly string[]).includes(lng) ? (lng as LanguageCode) : fallbackLanguage;
}

/** Stores the language and switches the texts (antd's locale follows through the providers). */
export async function applyLanguage(language: LanguageCode): Promise<void> {
  storage.language.set(language);
  markDocumentLanguage(language);
  await loadLanguage(language);
  // switching to the language already shown would re-render every text for nothing
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { LanguageCode } from '@campus/contracts';
import { fallbackLanguage, languageCodes } from '@campus/contracts';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import zhMO from '../locales/zh-MO.json';
import * as storage from './storage.ts';
import { matchBrowserLanguage } from './browser-language.ts';

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    'en-US': { translation: enUS },
    'zh-CN': { translation: zhCN },
    'zh-MO': { translation: zhMO },
  },
  // the user's own pick, else the browser's preference, else the fallback (zh-CN)
  lng: storage.language.getStored() ?? matchBrowserLanguage(typeof navigator === 'undefined' ? [] : navigator.languages) ?? fallbackLanguage,
  fallbackLng: fallbackLanguage,
  supportedLngs: [...languageCodes],
  interpolation: { escapeValue: false },
  // menu titles arrive as resource bundles after sign-in: re-render when they do
  react: { bindI18nStore: 'added' },
  returnNull: false,
  initAsync: false,
});

/** The page's language for the browser and assistive technology: <html lang> follows the interface language. */
function markDocumentLanguage(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

// before anything renders (main.tsx imports this module first): index.html ships lang="zh-CN", and the first paint
// must already be in the stored language, page and <html lang> alike
markDocumentLanguage(i18n.language);

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
  // switching to the language already shown would re-render every text for nothing
  if (i18n.language !== language) await i18n.changeLanguage(language);
}

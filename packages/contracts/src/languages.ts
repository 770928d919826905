/** Interface languages (spec §1). zh-CN is the fallback. */
export const languageCodes = ['zh-CN', 'zh-MO', 'en-US'] as const;
export type LanguageCode = (typeof languageCodes)[number];
export const fallbackLanguage: LanguageCode = 'zh-CN';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (languageCodes as readonly string[]).includes(value);
}

/** Picks a supported language from a header or stored value, falling back to zh-CN. */
export function toLanguage(value: unknown): LanguageCode {
  return isLanguageCode(value) ? value : fallbackLanguage;
}

export type Localised = Record<LanguageCode, string>;

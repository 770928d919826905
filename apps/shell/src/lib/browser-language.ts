import type { LanguageCode } from '@campus/contracts';

/**
 * The interface language that best fits the browser's preferred languages, or null when none of
 * them is supported (the caller then falls back to zh-CN, spec §1). Traditional Chinese tags
 * (Hant, TW, HK, MO) map to zh-MO; other Chinese to zh-CN; any English to en-US.
 */
export function matchBrowserLanguage(preferred: readonly string[]): LanguageCode | null {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower === 'en' || lower.startsWith('en-')) return 'en-US';
    if (lower === 'zh' || lower.startsWith('zh-')) {
      return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-MO' : 'zh-CN';
    }
  }
  return null;
}

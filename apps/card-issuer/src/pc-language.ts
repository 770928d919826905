import type { Localised } from '@campus/contracts';

/** The languages the issuer's console, its service and its installer speak (the product's three). */
export type PcLanguage = keyof Localised;

/**
 * The product language for a BCP 47 tag: Traditional Chinese (Taiwan, Hong Kong, Macao, zh-Hant) is zh-MO, any
 * other Chinese zh-CN, anything else en-US; null when there is no tag.
 */
export function languageFromTag(tag: string | null | undefined): PcLanguage | null {
  const cleaned = tag?.trim().replace(/_/g, '-').split('.')[0]?.toLowerCase();
  if (!cleaned || cleaned === 'c' || cleaned === 'posix') return null;
  const [primary, ...rest] = cleaned.split('-');
  if (primary !== 'zh') return 'en-US';
  return rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part)) ? 'zh-MO' : 'zh-CN';
}

/** The product language for a Windows LANGID (GetUserDefaultUILanguage): 0x04 is Chinese, its sublanguage the script. */
export function languageFromLangId(langId: number): PcLanguage {
  if ((langId & 0x3ff) !== 0x04) return 'en-US';
  // zh-TW 0x0404, zh-HK 0x0C04, zh-MO 0x1404, zh-Hant 0x7C04; zh-CN 0x0804, zh-SG 0x1004, zh-Hans 0x0004
  return [0x0404, 0x0c04, 0x1404, 0x7c04].includes(langId) ? 'zh-MO' : 'zh-CN';
}

export interface LanguageProbes {
  /** Windows: the user's UI language (GetUserDefaultUILanguage); null elsewhere or when it cannot be asked. */
  uiLanguageId?: () => number | null;
  /** The runtime's default locale (ICU): Windows' regional format, or LANG on Linux. */
  runtimeLocale?: () => string | undefined;
}

const defaultLocale = () => Intl.DateTimeFormat().resolvedOptions().locale;

/**
 * The PC's language: CARD_ISSUER_LANG when it names one (en-US, zh-CN, zh-MO or any tag such as zh-TW), else
 * Windows' UI language, else LC_ALL / LC_MESSAGES / LANG, else the runtime's locale; en-US when nothing says.
 */
export function pcLanguage(env: Record<string, string | undefined> = process.env, probes: LanguageProbes = {}): PcLanguage {
  const chosen = languageFromTag(env.CARD_ISSUER_LANG);
  if (chosen) return chosen;
  const langId = probes.uiLanguageId?.() ?? null;
  if (langId !== null && langId > 0) return languageFromLangId(langId);
  for (const variable of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const fromEnv = languageFromTag(env[variable]);
    if (fromEnv) return fromEnv;
  }
  return languageFromTag((probes.runtimeLocale ?? defaultLocale)()) ?? 'en-US';
}

/**
 * pcLanguage() with Windows' UI language asked through koffi on Windows. Asked once at start: what the issuer prints
 * then stays in one language. A Windows whose koffi does not load still gets its language from the locale, so the
 * message saying koffi is missing comes out in it.
 */
export async function detectPcLanguage(env: Record<string, string | undefined> = process.env): Promise<PcLanguage> {
  const probes: LanguageProbes = {};
  if (process.platform === 'win32') {
    probes.uiLanguageId = await import('./windows/win32.ts').then(
      (win32) => win32.uiLanguageId,
      () => undefined,
    );
  }
  return pcLanguage(env, probes);
}

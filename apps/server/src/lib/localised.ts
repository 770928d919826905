import { fallbackLanguage, languageCodes } from '@campus/contracts';
import type { LanguageCode, Localised } from '@campus/contracts';

/** Localised texts are stored as JSON objects keyed by language code. */
export function toLocalisedJson(value: Localised): string {
  return JSON.stringify(value);
}

export function pickLocalised(json: string, language: LanguageCode): string {
  try {
    const parsed = JSON.parse(json) as Partial<Record<string, unknown>>;
    const text = parsed[language] ?? parsed[fallbackLanguage] ?? languageCodes.map((c) => parsed[c]).find(Boolean);
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

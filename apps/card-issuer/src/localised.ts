import type { LanguageCode, Localised } from '@campus/contracts';
import { languageCodes } from '@campus/contracts';
import { ReaderError } from './readers/card-reader.ts';

/** A text made the same way in each of the three languages. */
export function eachLanguage(make: (language: LanguageCode) => string): Localised {
  return Object.fromEntries(languageCodes.map((language) => [language, make(language)])) as Localised;
}

/** Localised texts one after the other: English parts with `separator` between them, Chinese ones with `chineseSeparator`. */
export function joinLocalised(parts: Localised[], separator: string, chineseSeparator: string): Localised {
  return eachLanguage((language) => parts.map((part) => part[language]).join(language === 'en-US' ? separator : chineseSeparator));
}

/** A failure the operator reads in the PC's language; its `message` is the English text (for logs and tests). */
export class LocalisedError extends Error {
  constructor(readonly localised: Localised) {
    super(localised['en-US']);
    this.name = 'LocalisedError';
  }
}

/** What a failure says in `language`: a reader code's message and why, a LocalisedError's text, else its own message. */
export function failureText(error: unknown, language: LanguageCode): string {
  if (error instanceof ReaderError) return error.messageIn(language);
  if (error instanceof LocalisedError) return error.localised[language];
  return error instanceof Error ? error.message : String(error);
}

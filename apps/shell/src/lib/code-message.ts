import type { LanguageCode, Localised } from '@campus/contracts';
import { codeMessages, readerCodeMessages } from '@campus/contracts';

const placeholder = /\{(\w+)\}/g;

function catalogueEntry(code: number): Localised | null {
  return (codeMessages as Record<number, Localised>)[code] ?? (readerCodeMessages as Record<number, Localised>)[code] ?? null;
}

/** The values a filled-in template was given, read back from the text; null when the text is not that template. */
function valuesIn(template: string, text: string): Record<string, string> | null {
  const names: string[] = [];
  const literal = template.split(placeholder).map((part, index) => {
    if (index % 2 === 1) {
      names.push(part);
      return '(.+?)';
    }
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  const match = new RegExp(`^${literal.join('')}$`, 's').exec(text);
  if (!match) return null;
  return Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']));
}

/**
 * A message the server (or the card issuer) sent for a catalogue code, said again in `language`: the placeholder
 * values are read back from the message as it was sent in `sentIn`. Null when the message is not the catalogue's
 * text of that code (keep it as sent).
 */
export function messageInLanguage(code: number, message: string, sentIn: LanguageCode, language: LanguageCode): string | null {
  const entry = catalogueEntry(code);
  if (!entry) return null;
  const values = valuesIn(entry[sentIn], message);
  if (!values) return null;
  return entry[language].replace(placeholder, (whole, name: string) => values[name] ?? whole);
}

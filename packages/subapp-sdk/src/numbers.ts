import { isShellLanguage } from './language.ts';

/** Made once per language, for what formatCount does not write itself. */
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string): Intl.NumberFormat {
  let format = numberFormats.get(language);
  if (!format) {
    try {
      format = new Intl.NumberFormat(language);
    } catch {
      format = new Intl.NumberFormat();
    }
    numberFormats.set(language, format);
  }
  return format;
}

/**
 * A count (people, rows, sessions) as the language writes it: 1,234,567 in each shell language. Whole numbers in
 * the shell's languages are grouped here rather than by Intl: the first Intl object a page makes loads the
 * browser's locale data (about 50 ms at once on a desktop, 200 ms on a mid-range phone), and a home page of
 * figures would pay it in the middle of its first mount. Anything else goes to Intl.NumberFormat; the tests
 * compare the two.
 */
export function formatCount(value: number, language: string): string {
  if (!Number.isSafeInteger(value) || !isShellLanguage(language)) return numberFormat(language).format(value);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
}

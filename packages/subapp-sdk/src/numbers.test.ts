import { describe, expect, it } from 'vitest';
import { formatCount } from './numbers.ts';
import { shellLanguages } from './language.ts';

const samples = [0, 7, 42, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 2_147_483_647, Number.MAX_SAFE_INTEGER, -0, -1, -1000, -9_876_543];

describe('formatCount', () => {
  it.each(shellLanguages.map((language) => [language]))('writes whole numbers in %s as Intl does', (language) => {
    const intl = new Intl.NumberFormat(language);
    for (const value of samples) expect(formatCount(value, language), String(value)).toBe(intl.format(value));
  });

  it('groups by thousands with a comma', () => {
    expect(formatCount(1_234_567, 'zh-MO')).toBe('1,234,567');
    expect(formatCount(-1000, 'en-US')).toBe('-1,000');
    expect(formatCount(512, 'zh-CN')).toBe('512');
  });

  it('leaves fractions and other languages to Intl', () => {
    expect(formatCount(1234.5, 'en-US')).toBe(new Intl.NumberFormat('en-US').format(1234.5));
    expect(formatCount(1_234_567, 'de-DE')).toBe('1.234.567');
    expect(formatCount(1_234_567, 'not a language')).toBe(new Intl.NumberFormat().format(1_234_567));
  });
});

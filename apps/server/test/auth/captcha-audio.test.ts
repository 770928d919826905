import { describe, expect, it } from 'vitest';
import { languageCodes } from '@campus/contracts';
import { speakCaptcha } from '../../src/modules/auth/captcha-audio.ts';

describe('the image code said aloud', () => {
  // the code's alphabet (captcha-service.ts): every character has a voice in every language
  const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

  it.each(languageCodes)('says every character of the code in %s, case aside', (language) => {
    const all = speakCaptcha(alphabet.toLowerCase(), language);
    // each character is at least a quarter of a second, and a pause follows it
    expect((all.length - 44) / 8000).toBeGreaterThan(alphabet.length * 0.7);
  });

  it('refuses a character the code never has, rather than skipping it', () => {
    expect(() => speakCaptcha('AB0D', 'en-US')).toThrow(/no "0"/);
  });
});

import { describe, expect, it } from 'vitest';
import { languageFromLangId, languageFromTag, pcLanguage } from '../src/pc-language.ts';

describe("the PC's language for the service and its installer", () => {
  it('maps Traditional Chinese (Taiwan, Hong Kong, Macao, Hant) to zh-MO, other Chinese to zh-CN, the rest to en-US', () => {
    expect(['zh-TW', 'zh-HK', 'zh-MO', 'zh-Hant', 'zh-Hant-TW', 'zh_TW.UTF-8'].map(languageFromTag)).toEqual(Array(6).fill('zh-MO'));
    expect(['zh-CN', 'zh', 'zh-SG', 'zh-Hans', 'zh_CN.UTF-8'].map(languageFromTag)).toEqual(Array(5).fill('zh-CN'));
    expect(['en-US', 'de-DE', 'pt-BR', 'ja'].map(languageFromTag)).toEqual(Array(4).fill('en-US'));
    expect(['', undefined, 'C', 'POSIX', 'C.UTF-8'].map(languageFromTag)).toEqual(Array(5).fill(null));
  });

  it("reads Windows' UI language (LANGID) the same way", () => {
    expect([0x0404, 0x0c04, 0x1404, 0x7c04].map(languageFromLangId)).toEqual(Array(4).fill('zh-MO'));
    expect([0x0804, 0x1004, 0x0004].map(languageFromLangId)).toEqual(Array(3).fill('zh-CN'));
    expect([0x0409, 0x0809, 0x0407, 0x0411].map(languageFromLangId)).toEqual(Array(4).fill('en-US'));
  });

  it('takes CARD_ISSUER_LANG first, then the UI language, then LANG, then the runtime locale; en-US at last', () => {
    const windowsZhTw = { uiLanguageId: () => 0x0404, runtimeLocale: () => 'en-US' };
    expect(pcLanguage({ CARD_ISSUER_LANG: 'zh-CN' }, windowsZhTw)).toBe('zh-CN');
    expect(pcLanguage({ CARD_ISSUER_LANG: 'en-US' }, windowsZhTw)).toBe('en-US');
    expect(pcLanguage({}, windowsZhTw)).toBe('zh-MO');
    expect(pcLanguage({ CARD_ISSUER_LANG: ' ' }, windowsZhTw)).toBe('zh-MO');
    expect(pcLanguage({ LANG: 'zh_HK.UTF-8' }, { uiLanguageId: () => null, runtimeLocale: () => 'en-US' })).toBe('zh-MO');
    expect(pcLanguage({ LANG: 'C.UTF-8' }, { runtimeLocale: () => 'zh-CN' })).toBe('zh-CN');
    expect(pcLanguage({ LANG: 'C' }, { runtimeLocale: () => 'und' })).toBe('en-US');
  });
});

import { describe, expect, it } from 'vitest';
import { matchBrowserLanguage } from './browser-language.ts';

describe('matchBrowserLanguage', () => {
  it.each([
    [['en-GB', 'zh-CN'], 'en-US'],
    [['en'], 'en-US'],
    [['zh-TW'], 'zh-MO'],
    [['zh-Hant-HK'], 'zh-MO'],
    [['zh-MO'], 'zh-MO'],
    [['zh'], 'zh-CN'],
    [['zh-Hans-CN'], 'zh-CN'],
    [['fr-FR', 'zh-HK'], 'zh-MO'],
  ] as const)('%j → %s', (tags, expected) => {
    expect(matchBrowserLanguage(tags)).toBe(expected);
  });

  it('answers null when no preferred language is supported, so zh-CN applies', () => {
    expect(matchBrowserLanguage(['fr-FR', 'de'])).toBeNull();
    expect(matchBrowserLanguage([])).toBeNull();
  });
});

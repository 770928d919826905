import { describe, expect, it, vi } from 'vitest';
import { createShellLanguageStore, isShellLanguage, toShellLanguage } from './language.ts';

describe('languages', () => {
  it('recognises the three interface languages only', () => {
    expect(isShellLanguage('en-US')).toBe(true);
    expect(isShellLanguage('zh-MO')).toBe(true);
    expect(isShellLanguage('zh-TW')).toBe(false);
    expect(isShellLanguage(undefined)).toBe(false);
  });

  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-TW', 'zh-MO'],
    ['zh-HK', 'zh-MO'],
    ['zh-Hant', 'zh-MO'],
    ['zh_mo', 'zh-MO'],
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['fr-FR', 'zh-CN'],
    [null, 'zh-CN'],
  ])('maps %s to %s', (tag, language) => {
    expect(toShellLanguage(tag)).toBe(language);
  });
});

describe('createShellLanguageStore', () => {
  it('tells listeners about changes only, and stops after unsubscribe or clear', () => {
    const store = createShellLanguageStore('zh-CN');
    const first = vi.fn();
    const second = vi.fn();
    const off = store.subscribe(first);
    store.subscribe(second);
    store.set('zh-CN');
    expect(first).not.toHaveBeenCalled();
    store.set('en-US');
    expect(store.get()).toBe('en-US');
    expect(first).toHaveBeenCalledWith('en-US');
    off();
    store.set('zh-MO');
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    expect(store.listenerCount()).toBe(1);
    store.clear();
    expect(store.listenerCount()).toBe(0);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { theme, version } from 'antd';
import type { MappingAlgorithm } from 'antd';
import { rememberedAlgorithm } from './remembered-algorithm.ts';
import { storageKeys } from './storage.ts';

const seed = { ...theme.getDesignToken(), colorPrimary: '#08797c' } as unknown as Parameters<MappingAlgorithm>[0];

describe('antd’s theme derivation, remembered', () => {
  it('answers what antd derives, and derives it once for a seed it has seen before, on a later page load too', () => {
    localStorage.clear();
    const derive = vi.fn(theme.defaultAlgorithm);
    const first = rememberedAlgorithm(derive, version)(seed);
    expect(first).toEqual(theme.defaultAlgorithm(seed));
    // a new page load: a new function over the same storage
    const again = rememberedAlgorithm(derive, version)(seed);
    expect(again).toEqual(first);
    expect(derive).toHaveBeenCalledTimes(1);
  });

  it('derives again for another seed or another antd version', () => {
    localStorage.clear();
    const derive = vi.fn(theme.defaultAlgorithm);
    rememberedAlgorithm(derive, version)(seed);
    const violet = rememberedAlgorithm(derive, version)({ ...seed, colorPrimary: '#722ed1' });
    expect(violet.colorPrimaryBg).toBe(theme.defaultAlgorithm({ ...seed, colorPrimary: '#722ed1' }).colorPrimaryBg);
    rememberedAlgorithm(derive, `${version}-next`)({ ...seed, colorPrimary: '#722ed1' });
    expect(derive).toHaveBeenCalledTimes(3);
  });

  it('derives it when the storage holds something else or refuses to keep it', () => {
    localStorage.setItem(storageKeys.antdThemeTokens, '{not json');
    const derive = vi.fn(theme.defaultAlgorithm);
    expect(rememberedAlgorithm(derive, version)(seed)).toEqual(theme.defaultAlgorithm(seed));
    localStorage.clear();
    const refusing = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    try {
      expect(rememberedAlgorithm(derive, version)(seed)).toEqual(theme.defaultAlgorithm(seed));
    } finally {
      refusing.mockRestore();
    }
    expect(derive).toHaveBeenCalledTimes(2);
  });
});

import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useShellLanguage } from './react.ts';
import { createShellLanguageStore } from './language.ts';

describe('useShellLanguage', () => {
  it('re-renders with every language change and unsubscribes on unmount', () => {
    const store = createShellLanguageStore('zh-CN');
    const source = { language: store.get, onLanguageChange: store.subscribe };
    const { result, unmount } = renderHook(() => useShellLanguage(source));
    expect(result.current).toBe('zh-CN');
    act(() => store.set('en-US'));
    expect(result.current).toBe('en-US');
    expect(store.listenerCount()).toBe(1);
    unmount();
    expect(store.listenerCount()).toBe(0);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { renderInShell, useShellLanguage } from './react.ts';
import { createShellLanguageStore } from './language.ts';
import { defineSubApp, type SubAppContext } from './lifecycles.ts';
import { qiankunContainer, shellProps } from './testing.ts';

afterEach(() => {
  document.body.replaceChildren();
});

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

describe('renderInShell', () => {
  let breakNow: (() => void) | null = null;
  function Orders({ context }: { context: SubAppContext }) {
    const [broken, setBroken] = useState(false);
    breakNow = () => setBroken(true);
    useEffect(() => {
      if (broken) throw new Error('orders broke after mount');
    }, [broken]);
    return <p>Orders of {context.props.userInfo.name}</p>;
  }

  it('renders the app, and an error that empties it after mount goes to the shell, once, while mounted', async () => {
    const reportFailure = vi.fn();
    const app = defineSubApp({ mount: (context) => renderInShell(context, <Orders context={context} />, { identifierPrefix: 'orders-' }) });
    const container = qiankunContainer();
    await act(() => app.mount({ ...shellProps(), container, reportFailure }));
    expect(container.textContent).toBe('Orders of Ada');
    // as in a browser: outside act(), which would rethrow the error to the test instead
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    breakNow?.();
    await vi.waitFor(() => expect(reportFailure).toHaveBeenCalled());
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    expect(reportFailure).toHaveBeenCalledTimes(1);
    expect((reportFailure.mock.calls[0]?.[0] as Error).message).toBe('orders broke after mount');
    expect(container.textContent).toBe('');
    await act(() => app.unmount());
  });
});

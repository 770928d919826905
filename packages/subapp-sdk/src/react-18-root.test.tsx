import { afterEach, expect, it, vi } from 'vitest';
import { act } from '@testing-library/react';
import { useState } from 'react';
import type * as ReactDomClient from 'react-dom/client';
import { renderInShell } from './react.ts';
import { defineSubApp, type SubAppContext } from './lifecycles.ts';
import { qiankunContainer, shellProps } from './testing.ts';

// A React 18 root (issue 48 item 17): createRoot takes no onUncaughtError there, so the SDK cannot rely on it. This
// file's root drops every option React 18 does not know, as React 18 does.
vi.mock('react-dom/client', async (importOriginal) => {
  const client = await importOriginal<typeof ReactDomClient>();
  return {
    ...client,
    createRoot: (container: Element, options?: { identifierPrefix?: string; onRecoverableError?: (error: unknown) => void }) =>
      client.createRoot(container, { identifierPrefix: options?.identifierPrefix, onRecoverableError: options?.onRecoverableError }),
  };
});

afterEach(() => {
  document.body.replaceChildren();
});

it('a throw while rendering shows the shell’s failed page on a React 18 root too, not a blank area', async () => {
  let breakNow: (() => void) | null = null;
  function Orders({ context }: { context: SubAppContext }) {
    const [broken, setBroken] = useState(false);
    breakNow = () => setBroken(true);
    if (broken) throw new Error('orders broke while rendering');
    return <p>Orders of {context.props.userInfo.name}</p>;
  }
  const reportFailure = vi.fn();
  const app = defineSubApp({ mount: (context) => renderInShell(context, <Orders context={context} />) });
  const container = qiankunContainer();
  await act(() => app.mount({ ...shellProps(), container, reportFailure }));
  expect(container.textContent).toBe('Orders of Ada');

  // React logs the error it caught: kept out of the test's output
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
  try {
    breakNow!();
    await vi.waitFor(() => expect(reportFailure).toHaveBeenCalled());
  } finally {
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    logged.mockRestore();
  }
  expect(reportFailure).toHaveBeenCalledTimes(1);
  expect((reportFailure.mock.calls[0]?.[0] as Error).message).toBe('orders broke while rendering');
  expect(container.textContent).toBe('');
  await act(() => app.unmount());
});

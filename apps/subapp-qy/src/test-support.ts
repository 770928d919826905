/** Test helpers: mount the real lifecycles into a qiankun-like container with a fake ShellApi and global state. */
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { ShellApi, ShellApiResult, ShellLanguage, ShellProps, SubAppMountProps } from '@campus/subapp-sdk';
import { ShellRequestError } from '@campus/subapp-sdk';
import { createFakeGlobalState, qiankunContainer, shellProps } from '@campus/subapp-sdk/testing';
import { lifecycles } from './lifecycles.ts';

type Handler = (path: string, arg: unknown) => Promise<ShellApiResult<unknown>>;

/** A ShellApi whose calls are vi.fn mocks; give each test its answers with mockImplementation / mockResolvedValueOnce. */
export function createFakeApi() {
  const get = vi.fn<Handler>(async (path) => {
    throw new Error(`unexpected GET ${path}`);
  });
  const post = vi.fn<Handler>(async (path) => {
    throw new Error(`unexpected POST ${path}`);
  });
  const api = { get, post } as unknown as ShellApi;
  return { api, get, post };
}

/** What the shell's request layer rejects with (apps/shell/src/lib/request.ts RequestError). */
export function httpError(status: number, code: number | null = null): ShellRequestError {
  return new ShellRequestError(`Request failed with status code ${status}`, { status, code });
}

/** A promise to resolve or reject later (loading states). */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface MountOptions {
  path?: string;
  language?: ShellLanguage;
  api?: ShellApi;
  navigate?: ShellProps['navigate'];
  utcDiff?: number;
}

let mounted: { unmount: () => Promise<void> } | null = null;

export async function mountApp(options: MountOptions = {}) {
  window.history.replaceState(null, '', options.path ?? '/qy/homePage');
  const hub = createFakeGlobalState({ language: options.language ?? 'en-US' });
  const container = qiankunContainer();
  const base = shellProps();
  const props: SubAppMountProps = {
    ...base,
    language: options.language ?? 'en-US',
    api: options.api ?? createFakeApi().api,
    navigate: options.navigate ?? base.navigate,
    globalConfig: { ...base.globalConfig, utcDiff: options.utcDiff ?? base.globalConfig.utcDiff },
    container,
    name: 'qy',
    ...hub.actionsFor('qy'),
  };
  await act(async () => {
    await lifecycles.bootstrap(props);
    await lifecycles.mount(props);
  });
  const handle = {
    hub,
    container,
    props,
    root: container.querySelector('[data-subapp-root]') as HTMLElement,
    setLanguage: (language: ShellLanguage) => act(() => hub.broadcast({ language })),
    /** What the shell does: pushState, and single-spa fires popstate. */
    go: (path: string) =>
      act(async () => {
        window.history.pushState(null, '', path);
        window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
      }),
    unmount: async () => {
      if (mounted === handle) mounted = null;
      await act(async () => {
        await lifecycles.unmount(props);
      });
      hub.remove('qy');
      container.remove();
    },
  };
  mounted = handle;
  return handle;
}

/** afterEach: unmount what a test left mounted. */
export async function unmountLeftovers(): Promise<void> {
  await mounted?.unmount();
  mounted = null;
}

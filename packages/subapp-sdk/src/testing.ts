/** Test helpers for sub-app teams: `@campus/subapp-sdk/testing` (imports no test framework). */
import type { ShellApi, ShellBroadcast, ShellProps } from './shared-state.ts';
import type { GlobalStateCallback, SubAppMountProps } from './lifecycles.ts';

/**
 * A stand-in for qiankun's global state (initGlobalState + getMicroAppStateActions): one listener per app,
 * fireImmediately, deep copies. Used by the SDK's and the sub-apps' tests.
 */
export function createFakeGlobalState(initial: ShellBroadcast) {
  let state: ShellBroadcast = { ...initial };
  const listeners = new Map<string, GlobalStateCallback>();
  return {
    listenerCount: () => listeners.size,
    state: () => ({ ...state }),
    /** What the shell does on a language switch. */
    broadcast(next: Partial<ShellBroadcast>) {
      const previous = state;
      state = { ...state, ...next };
      for (const listener of [...listeners.values()]) listener({ ...state }, { ...previous });
    },
    actionsFor(id: string): Pick<SubAppMountProps, 'onGlobalStateChange' | 'offGlobalStateChange' | 'setGlobalState'> {
      return {
        onGlobalStateChange: (callback, fireImmediately) => {
          listeners.set(id, callback);
          if (fireImmediately) callback({ ...state }, { ...state });
        },
        offGlobalStateChange: () => listeners.delete(id),
        setGlobalState: () => false,
      };
    },
    /** qiankun removes an app's listener itself after unmount. */
    remove(id: string) {
      listeners.delete(id);
    },
  };
}

export function fakeApi(): ShellApi {
  return {
    get: () => Promise.reject(new Error('not expected')),
    post: () => Promise.reject(new Error('not expected')),
  };
}

export function shellProps(overrides: Partial<ShellProps> = {}): ShellProps {
  return {
    userInfo: { id: 'u1', code: 'sysadmin', name: 'Ada', loginTime: 0, isSystemAdmin: true, tenantCode: '1001', tenantName: 'Demo Campus' },
    globalConfig: {
      tenantCode: '1001',
      mjSystem: 0,
      isPrivateDeployment: false,
      systemName: 'Campus',
      skin: 'DASUI001',
      utcDiff: 480,
      shellVersion: '3.5.7',
      permissions: {},
    },
    routers: [],
    language: 'en-US',
    logoUrl: '',
    changePwd: () => {},
    navigate: () => true,
    api: fakeApi(),
    basePath: '/qy/',
    ...overrides,
  };
}

/** A qiankun-like container: a wrapper holding the entry's `<div data-subapp-root>`. */
export function qiankunContainer(): HTMLElement {
  const container = document.createElement('div');
  container.setAttribute('data-qiankun', 'test');
  const root = document.createElement('div');
  root.setAttribute('data-subapp-root', '');
  root.id = 'root';
  container.append(root);
  document.body.append(container);
  return container;
}

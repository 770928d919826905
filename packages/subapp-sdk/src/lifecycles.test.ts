import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineSubApp, type SubAppContext } from './lifecycles.ts';
import { sdkVersion } from './version.ts';
import pkg from '../package.json';
import { createFakeGlobalState, qiankunContainer, shellProps } from './testing.ts';
import type { ShellLanguage } from './shared-state.ts';

afterEach(() => {
  document.body.replaceChildren();
});

function setup() {
  const hub = createFakeGlobalState({ language: 'en-US' });
  const container = qiankunContainer();
  const props = { ...shellProps({ language: 'en-US' }), container, name: 'qy', ...hub.actionsFor('qy') };
  return { hub, container, props };
}

describe('defineSubApp', () => {
  it('bootstrap and mount call the options with the render root, props and language', async () => {
    const bootstrap = vi.fn();
    let seen: SubAppContext | null = null;
    const app = defineSubApp({
      bootstrap,
      mount: (context) => {
        seen = context;
      },
    });
    const { props, container } = setup();
    await app.bootstrap(props);
    expect(bootstrap).toHaveBeenCalledTimes(1);
    await app.mount(props);
    const context = seen as SubAppContext | null;
    expect(context?.root).toBe(container.querySelector('[data-subapp-root]'));
    expect(context?.container).toBe(container);
    expect(context?.props.userInfo.name).toBe('Ada');
    expect(context?.language()).toBe('en-US');
    await app.unmount(props);
  });

  it('renders into the container itself when it has no [data-subapp-root]', async () => {
    let root: HTMLElement | null = null;
    const app = defineSubApp({ mount: (context) => void (root = context.root) });
    const container = document.createElement('section');
    await app.mount({ ...shellProps(), container });
    expect(root).toBe(container);
    await app.unmount();
  });

  it('takes the language of the broadcast state at once (fireImmediately) and on every change', async () => {
    const heard: ShellLanguage[] = [];
    let context: SubAppContext | null = null;
    const app = defineSubApp({
      mount: (c) => {
        context = c;
        c.onLanguageChange((language) => heard.push(language));
      },
    });
    const { hub, props } = setup();
    hub.broadcast({ language: 'zh-MO' });
    await app.mount({ ...props, language: 'en-US' });
    expect((context as SubAppContext | null)?.language()).toBe('zh-MO');
    hub.broadcast({ language: 'zh-CN' });
    hub.broadcast({ language: 'zh-CN' });
    expect(heard).toEqual(['zh-CN']);
    expect((context as SubAppContext | null)?.language()).toBe('zh-CN');
    await app.unmount(props);
  });

  it('ignores broadcast values that are not languages', async () => {
    let context: SubAppContext | null = null;
    const app = defineSubApp({ mount: (c) => void (context = c) });
    const { hub, props } = setup();
    await app.mount(props);
    hub.broadcast({ language: 'fr-FR' as ShellLanguage });
    expect((context as SubAppContext | null)?.language()).toBe('en-US');
    await app.unmount(props);
  });

  it('unmount removes the global-state listener, the language listeners, and runs the cleanup', async () => {
    const cleanup = vi.fn();
    const heard: ShellLanguage[] = [];
    const app = defineSubApp({
      mount: (context) => {
        context.onLanguageChange((language) => heard.push(language));
        return cleanup;
      },
    });
    const { hub, props } = setup();
    await app.mount(props);
    expect(hub.listenerCount()).toBe(1);
    await app.unmount(props);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(hub.listenerCount()).toBe(0);
    hub.broadcast({ language: 'zh-CN' });
    expect(heard).toEqual([]);
  });

  it('waits for an async cleanup', async () => {
    let done = false;
    const app = defineSubApp({
      mount: async () => async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        done = true;
      },
    });
    const { props } = setup();
    await app.mount(props);
    await app.unmount(props);
    expect(done).toBe(true);
  });

  it('a listener left behind by qiankun (no offGlobalStateChange in props) does nothing after unmount', async () => {
    const heard: ShellLanguage[] = [];
    let context: SubAppContext | null = null;
    const app = defineSubApp({
      mount: (c) => {
        context = c;
        c.onLanguageChange((language) => heard.push(language));
      },
    });
    const { hub, props } = setup();
    const { offGlobalStateChange: _omitted, ...withoutOff } = props;
    await app.mount(withoutOff);
    await app.unmount(withoutOff);
    hub.broadcast({ language: 'zh-MO' });
    expect(heard).toEqual([]);
    expect((context as SubAppContext | null)?.language()).toBe('en-US');
  });

  it('50 mount/unmount rounds leave no listener behind', async () => {
    let live = 0;
    const app = defineSubApp({
      mount: (context) => {
        live += 1;
        const off = context.onLanguageChange(() => {});
        return () => {
          off();
          live -= 1;
        };
      },
    });
    const { hub, props } = setup();
    for (let round = 0; round < 50; round += 1) {
      await app.mount(props);
      hub.broadcast({ language: round % 2 ? 'zh-CN' : 'en-US' });
      await app.unmount(props);
    }
    expect(live).toBe(0);
    expect(hub.listenerCount()).toBe(0);
  });

  it('a second mount without unmount first undoes the first', async () => {
    const cleanups: number[] = [];
    let n = 0;
    const app = defineSubApp({
      mount: () => {
        const id = (n += 1);
        return () => void cleanups.push(id);
      },
    });
    const { props } = setup();
    await app.mount(props);
    await app.mount(props);
    expect(cleanups).toEqual([1]);
    await app.unmount(props);
    expect(cleanups).toEqual([1, 2]);
  });

  it('a mount that throws leaves no listener and rejects', async () => {
    const app = defineSubApp({
      mount: () => {
        throw new Error('render failed');
      },
    });
    const { hub, props } = setup();
    await expect(app.mount(props)).rejects.toThrow('render failed');
    expect(hub.listenerCount()).toBe(0);
  });

  it('an unmount called during an async mount waits for it, then cleans up', async () => {
    const cleanup = vi.fn();
    let finish: (() => void) | null = null;
    const app = defineSubApp({
      mount: () =>
        new Promise((resolve) => {
          finish = () => resolve(cleanup);
        }),
    });
    const { hub, props } = setup();
    const mounting = app.mount(props);
    const unmounting = app.unmount(props);
    await vi.waitFor(() => expect(finish).not.toBeNull());
    expect(cleanup).not.toHaveBeenCalled();
    (finish as (() => void) | null)?.();
    await mounting;
    await unmounting;
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(hub.listenerCount()).toBe(0);
  });

  it('mount without a container rejects with a clear message', async () => {
    const app = defineSubApp({ mount: () => {} });
    await expect(app.mount(shellProps())).rejects.toThrow(/props\.container/);
  });

  it('update applies a new language and hands the props to options.update', async () => {
    const update = vi.fn();
    let context: SubAppContext | null = null;
    const app = defineSubApp({ mount: (c) => void (context = c), update });
    const { props } = setup();
    await app.update({ language: 'zh-CN' });
    expect(update).not.toHaveBeenCalled();
    await app.mount(props);
    await app.update({ language: 'zh-CN' });
    expect((context as SubAppContext | null)?.language()).toBe('zh-CN');
    expect(update).toHaveBeenCalledWith(context, { language: 'zh-CN' });
    await app.unmount(props);
  });
});

describe('what a sub-app tells the shell', () => {
  it('bootstrap reports the SDK version and the app, and a shell that refuses it stops the bootstrap there', async () => {
    const checkSubApp = vi.fn();
    const bootstrap = vi.fn();
    const app = defineSubApp({ name: 'orders', version: '2.4.1', bootstrap, mount: () => {} });
    await app.bootstrap({ ...shellProps(), checkSubApp });
    expect(checkSubApp).toHaveBeenCalledWith({ sdkVersion, name: 'orders', version: '2.4.1' });
    expect(bootstrap).toHaveBeenCalledTimes(1);

    const refused = defineSubApp({ bootstrap, mount: () => {} });
    const refusal = new Error('does not fit this shell');
    await expect(refused.bootstrap({ ...shellProps(), checkSubApp: () => { throw refusal; } })).rejects.toBe(refusal);
    expect(bootstrap).toHaveBeenCalledTimes(1);
  });

  it('fail reports to the shell while mounted, and not after unmount', async () => {
    const reportFailure = vi.fn();
    let context: SubAppContext | null = null;
    const app = defineSubApp({ mount: (c) => void (context = c) });
    const { props } = setup();
    await app.mount({ ...props, reportFailure });
    const mounted = context as SubAppContext | null;
    const broke = new Error('broke later');
    mounted?.fail(broke);
    expect(reportFailure).toHaveBeenCalledWith(broke);
    await app.unmount(props);
    mounted?.fail(new Error('too late'));
    expect(reportFailure).toHaveBeenCalledTimes(1);
  });

  it('the SDK version is the package version', () => {
    expect(sdkVersion).toBe(pkg.version);
  });
});

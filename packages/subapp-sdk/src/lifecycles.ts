import type { ShellBroadcast, ShellLanguage, ShellProps } from './shared-state.ts';
import { sdkVersion } from './version.ts';
import { createShellLanguageStore, isShellLanguage, toShellLanguage, type ShellLanguageListener, type ShellLanguageStore } from './language.ts';

/** The global-state callback of qiankun: the whole broadcast state and the one before it. */
export type GlobalStateCallback = (state: Partial<ShellBroadcast>, previous: Partial<ShellBroadcast>) => void;

/**
 * What qiankun adds to the shell's props in every lifecycle call. qiankun 2.10.16 passes `container`,
 * `onGlobalStateChange` and `setGlobalState` to mount (and removes the app's global listener itself after
 * unmount); `offGlobalStateChange` is called when present.
 */
export interface QiankunProps {
  /** The element qiankun made for the app (holds the entry's index.html body). */
  container?: HTMLElement;
  /** The app's registered name. */
  name?: string;
  /** One listener per app: a new one replaces the old. */
  onGlobalStateChange?: (callback: GlobalStateCallback, fireImmediately?: boolean) => void;
  offGlobalStateChange?: () => unknown;
  setGlobalState?: (state: Partial<ShellBroadcast>) => unknown;
}

export type SubAppMountProps = ShellProps & QiankunProps;

/** What options.mount may return: undone on unmount (render roots, listeners, timers, pending requests). */
export type SubAppCleanup = () => void | Promise<void>;

/** What options.mount receives. */
export interface SubAppContext {
  /** Where to render: the `[data-subapp-root]` element of the container (or the container itself). */
  root: HTMLElement;
  /** qiankun's container (or, standalone, the #root element). */
  container: HTMLElement;
  props: ShellProps;
  /** The current language: props.language at first, then every broadcast. */
  language: () => ShellLanguage;
  /** Called with the new language on every change while mounted; returns the function that removes the listener. */
  onLanguageChange: (listener: ShellLanguageListener) => () => void;
  /**
   * Tells the shell the sub-app failed after mount and has nothing to show: the shell shows its "failed" page with
   * Retry instead. Does nothing once unmounted (or in an older shell, which has no such page).
   */
  fail: (error: unknown) => void;
}

export interface SubAppOptions {
  /** The sub-app's name and version as its supplier ships them: the shell names them when the sub-app fails. */
  name?: string;
  version?: string;
  /** Selector of the render element inside the container; default `[data-subapp-root]`. */
  rootSelector?: string;
  /** Once per load, before the first mount. */
  bootstrap?: () => void | Promise<void>;
  /** Render the app; return what undoes it. */
  mount: (context: SubAppContext) => void | SubAppCleanup | Promise<void | SubAppCleanup>;
  /** New props while mounted (qiankun's loadMicroApp().update); the language is applied before this is called. */
  update?: (context: SubAppContext, props: Partial<SubAppMountProps>) => void | Promise<void>;
}

/** The object a sub-app's entry exports (its UMD global): qiankun's lifecycles. */
export interface SubAppLifecycles {
  bootstrap: (props?: Partial<SubAppMountProps>) => Promise<void>;
  mount: (props: SubAppMountProps) => Promise<void>;
  unmount: (props?: Partial<SubAppMountProps>) => Promise<void>;
  update: (props: Partial<SubAppMountProps>) => Promise<void>;
}

export const defaultRootSelector = '[data-subapp-root]';

interface Mounted {
  active: boolean;
  props: SubAppMountProps;
  store: ShellLanguageStore;
  context: SubAppContext;
  cleanup: SubAppCleanup | null;
}

/** Builds the lifecycles qiankun calls; everything a mount sets up is undone by unmount. */
export function defineSubApp(options: SubAppOptions): SubAppLifecycles {
  const rootSelector = options.rootSelector ?? defaultRootSelector;
  let current: Mounted | null = null;
  // Lifecycle calls run one after the other, even if a host calls unmount while mount is still running.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(step: () => Promise<T>): Promise<T> {
    const run = queue.then(step, step);
    queue = run.catch(() => undefined);
    return run;
  }

  async function teardown(mounted: Mounted | null = current): Promise<void> {
    if (!mounted || !mounted.active) return;
    if (current === mounted) current = null;
    mounted.active = false;
    try {
      mounted.props.offGlobalStateChange?.();
      await mounted.cleanup?.();
    } finally {
      mounted.store.clear();
    }
  }

  return {
    async bootstrap(props) {
      // a shell that cannot mount this build says so here, before anything of the sub-app runs
      props?.checkSubApp?.({ sdkVersion, name: options.name, version: options.version });
      await options.bootstrap?.();
    },

    mount: (props) =>
      serial(async () => {
        await teardown();
        const container = props.container;
        if (!container) throw new Error('campus sub-app: mount needs props.container (the element to render in)');
        const root = container.querySelector<HTMLElement>(rootSelector) ?? container;
        const store = createShellLanguageStore(toShellLanguage(props.language));
        const fail = (error: unknown) => {
          if (mounted.active) props.reportFailure?.(error);
        };
        const context: SubAppContext = { root, container, props, language: store.get, onLanguageChange: store.subscribe, fail };
        const mounted: Mounted = { active: true, props, store, context, cleanup: null };
        current = mounted;
        props.onGlobalStateChange?.((state) => {
          // qiankun removes the listener only after unmount has finished: ignore anything that arrives later
          if (mounted.active && isShellLanguage(state?.language)) store.set(state.language);
        }, true);
        try {
          const cleanup = await options.mount(context);
          mounted.cleanup = typeof cleanup === 'function' ? cleanup : null;
        } catch (error) {
          await teardown(mounted);
          throw error;
        }
      }),

    unmount: () => serial(() => teardown()),

    update: (props) =>
      serial(async () => {
        const mounted = current;
        if (!mounted) return;
        if (isShellLanguage(props.language)) mounted.store.set(props.language);
        await options.update?.(mounted.context, props);
      }),
  };
}

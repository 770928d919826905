import { createApp, h, inject, onScopeDispose, readonly, shallowRef, type App, type Component, type InjectionKey, type Ref } from 'vue';
import type { ShellLanguage } from './shared-state.ts';
import type { SubAppCleanup, SubAppContext } from './lifecycles.ts';

/** Where `mountInShell` puts the mount context for the app's components (`useShellContext`, `useShellLanguage`). */
export const shellContextKey: InjectionKey<SubAppContext> = Symbol('campus-shell-context');

/** The mount context in a component of an app mounted with `mountInShell`: the shell's props, the root, `fail`. */
export function useShellContext(): SubAppContext {
  return injectedContext();
}

function injectedContext(): SubAppContext {
  const context = inject(shellContextKey);
  if (!context) throw new Error('campus sub-app: useShellContext and useShellLanguage need an app mounted with mountInShell (or a context provided under shellContextKey)');
  return context;
}

/**
 * The shell's current language in a component's setup: a read-only ref that follows every broadcast, its listener
 * removed with the component. Without `source`, the context `mountInShell` provides.
 */
export function useShellLanguage(source?: Pick<SubAppContext, 'language' | 'onLanguageChange'>): Readonly<Ref<ShellLanguage>> {
  const from = source ?? injectedContext();
  const language = shallowRef(from.language());
  onScopeDispose(from.onLanguageChange((next) => (language.value = next)));
  return readonly(language);
}

export interface MountInShellOptions {
  /** Props of the root component (the shell's props are in `useShellContext().props`). */
  props?: Record<string, unknown>;
  /** Plugins, global components and the like, before the app mounts (a router, an i18n plugin). */
  setup?: (app: App) => void;
}

/**
 * Mounts `component` into the mount context's root as a Vue app and returns the cleanup `mount` should return. The
 * context is provided to every component (`useShellContext`, `useShellLanguage`). An error the app does not catch
 * itself (thrown while rendering, in a lifecycle hook, a watcher or an event handler: what reaches Vue's
 * `app.config.errorHandler`) removes the app's tree and goes to the shell, which shows its "failed" page with Retry
 * instead of a broken or blank area.
 */
export function mountInShell(context: SubAppContext, component: Component, options: MountInShellOptions = {}): SubAppCleanup {
  const failed = shallowRef(false);
  const app = createApp({ name: 'CampusSubApp', setup: () => () => (failed.value ? null : h(component, options.props)) });
  app.provide(shellContextKey, context);
  app.config.errorHandler = (error) => {
    failed.value = true;
    context.fail(error);
  };
  options.setup?.(app);
  app.mount(context.root);
  return () => app.unmount();
}

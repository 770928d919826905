import { useSyncExternalStore, type ReactNode } from 'react';
import { createRoot, type RootOptions } from 'react-dom/client';
import type { ShellLanguage } from './shared-state.ts';
import type { SubAppCleanup, SubAppContext } from './lifecycles.ts';

/** Anything with the current language and a change subscription: the mount context, or a language store adapted. */
export type ShellLanguageSource = Pick<SubAppContext, 'language' | 'onLanguageChange'>;

/**
 * The shell's current language in a React component; re-renders on every broadcast.
 * `source` must be stable (the mount context is).
 */
export function useShellLanguage(source: ShellLanguageSource): ShellLanguage {
  return useSyncExternalStore(source.onLanguageChange, source.language, source.language);
}

export interface RenderInShellOptions {
  /** Prefix of React's useId values: keeps ids unique beside the shell's and other sub-apps' (e.g. 'xx-'). */
  identifierPrefix?: string;
}

/**
 * Renders `element` into the mount context's root and returns the cleanup `mount` should return. An error that
 * React cannot recover from (thrown while rendering, in an effect, at mount or at any time later, and not caught by
 * an error boundary of the app) unmounts the app's tree: it is reported to the shell, which shows its "failed" page
 * with Retry instead of a blank area.
 */
export function renderInShell(context: SubAppContext, element: ReactNode, options: RenderInShellOptions = {}): SubAppCleanup {
  const rootOptions: RootOptions = {
    identifierPrefix: options.identifierPrefix,
    onUncaughtError: (error) => context.fail(error),
  };
  const root = createRoot(context.root, rootOptions);
  root.render(element);
  return () => root.unmount();
}


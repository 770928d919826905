import { Component, createElement, useSyncExternalStore, type ReactNode } from 'react';
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

interface FailureBoundaryProps {
  onError: (error: unknown) => void;
  children?: ReactNode;
}

/**
 * Catches what the app's tree throws while rendering, in an effect or a lifecycle method, on React 18 and 19 alike
 * (a React 18 root has no onUncaughtError): the tree is removed and the error goes to the shell.
 */
class FailureBoundary extends Component<FailureBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onError(error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * Renders `element` into the mount context's root and returns the cleanup `mount` should return. An error that the
 * app does not catch itself (thrown while rendering, in an effect, at mount or at any time later) unmounts the app's
 * tree: it is reported to the shell, which shows its "failed" page with Retry instead of a blank area. Works with
 * React 18 and 19: an error boundary around `element` catches it (React 19's onUncaughtError as well, for what
 * reaches the root).
 */
export function renderInShell(context: SubAppContext, element: ReactNode, options: RenderInShellOptions = {}): SubAppCleanup {
  const rootOptions: RootOptions = {
    identifierPrefix: options.identifierPrefix,
    onUncaughtError: (error) => context.fail(error),
  };
  const root = createRoot(context.root, rootOptions);
  root.render(createElement(FailureBoundary, { onError: (error) => context.fail(error) }, element));
  return () => root.unmount();
}

import { useSyncExternalStore } from 'react';
import type { ShellLanguage } from './shared-state.ts';
import type { SubAppContext } from './lifecycles.ts';

/** Anything with the current language and a change subscription: the mount context, or a language store adapted. */
export type ShellLanguageSource = Pick<SubAppContext, 'language' | 'onLanguageChange'>;

/**
 * The shell's current language in a React component; re-renders on every broadcast.
 * `source` must be stable (the mount context is).
 */
export function useShellLanguage(source: ShellLanguageSource): ShellLanguage {
  return useSyncExternalStore(source.onLanguageChange, source.language, source.language);
}

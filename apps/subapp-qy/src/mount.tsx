import type { SubAppCleanup, SubAppContext } from '@campus/subapp-sdk';
import { renderInShell } from '@campus/subapp-sdk/react';
import { App } from './app.tsx';
import './styles.css';

/**
 * Renders the app into the shell's container; the returned cleanup unmounts React (its effects drop every listener).
 * An error that empties the app later goes to the shell, which shows its failed page instead.
 */
export function mountQy(context: SubAppContext): SubAppCleanup {
  return renderInShell(context, <App context={context} />, { identifierPrefix: 'qy-' });
}

// The entry of the bundle: qiankun (inside the shell) reads these lifecycles from the UMD global.
import { defineSubApp, isInsideShell, runStandalone } from '@campus/subapp-sdk';
import { renderInShell } from '@campus/subapp-sdk/react';
import { name, version } from '../package.json';
import { App } from './app.tsx';
import './app.css';

export const lifecycles = defineSubApp({
  // the shell names them when the app fails
  name,
  version,
  // an error that empties the app later shows the shell's failed page with Retry, never a blank area
  mount: (context) => renderInShell(context, <App context={context} />, { identifierPrefix: `${name}-` }),
});

export const { bootstrap, mount, unmount, update } = lifecycles;

// `npm run dev`: on its own (index.html), with the session of the shell signed in to on the same address
const standaloneRoot = `${name}-root`;
if (!isInsideShell() && document.getElementById(standaloneRoot)) void runStandalone(lifecycles, { rootId: standaloneRoot });

// The entry of the bundle: qiankun (inside the shell) reads these lifecycles from the UMD global.
import { defineSubApp, isInsideShell, runStandalone } from '@campus/subapp-sdk';
import { mountInShell } from '@campus/subapp-sdk/vue';
import { name, version } from '../package.json';
import App from './App.vue';

export const lifecycles = defineSubApp({
  // the shell names them when the app fails
  name,
  version,
  // an error the app does not catch shows the shell's failed page with Retry, never a broken or blank area
  mount: (context) => mountInShell(context, App),
});

export const { bootstrap, mount, unmount, update } = lifecycles;

// `npm run dev`: on its own (index.html), with the session of the shell signed in to on the same address
const standaloneRoot = `${name}-root`;
if (!isInsideShell() && document.getElementById(standaloneRoot)) void runStandalone(lifecycles, { rootId: standaloneRoot });

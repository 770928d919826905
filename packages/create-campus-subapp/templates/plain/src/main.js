// The entry of the bundle: qiankun (inside the shell) reads these lifecycles from the UMD global.
import { defineSubApp, isInsideShell, runStandalone } from '@campus/subapp-sdk';
import { name, version } from '../package.json';
import { renderPage } from './page.js';
import './page.css';

export const lifecycles = defineSubApp({
  // the shell names them when the app fails
  name,
  version,
  mount(context) {
    const page = renderPage(context);
    context.root.append(page.element);
    // the language the user picks in the shell
    const stopListening = context.onLanguageChange(page.relabel);
    // what unmount undoes
    return () => {
      stopListening();
      page.element.remove();
    };
  },
});

export const { bootstrap, mount, unmount, update } = lifecycles;

// `npm run dev`: on its own (index.html), with the session of the shell signed in to on the same address
const standaloneRoot = `${name}-root`;
if (!isInsideShell() && document.getElementById(standaloneRoot)) void runStandalone(lifecycles, { rootId: standaloneRoot });

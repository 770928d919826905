/**
 * Entry of the UMD bundle `subapp-qy.umd.js` (global `campusSubappQy`). Inside the shell, qiankun runs it in its
 * sandbox and reads the lifecycles from the global; the bundle uses the React the shell lends
 * (`campusSharedLibraries`, see vite.config.ts), so the built bundle runs only inside the shell. On its own (the
 * Vite dev server, `npm run dev`, with its own React) it mounts itself into #subapp-qy-root (not #root: inside the
 * shell this page's elements sit in the shell's document, whose #root is the shell's own).
 * Nothing here may set another window property: qiankun takes the last global set by the entry as its exports.
 */
import { isInsideShell, runStandalone } from '@campus/subapp-sdk';
import { lifecycles } from './lifecycles.ts';
import { qyBase } from './lib/routes.ts';

export const { bootstrap, mount, unmount, update } = lifecycles;

const standaloneRootId = 'subapp-qy-root';

if (!isInsideShell() && typeof document !== 'undefined' && document.getElementById(standaloneRootId)) {
  runStandalone(lifecycles, { rootId: standaloneRootId, props: { basePath: qyBase } }).catch((error: unknown) => {
    console.error('[subapp-qy] standalone start failed', error);
  });
}

import { addErrorHandler, initGlobalState, registerMicroApps, start } from 'qiankun';
import type { MicroAppStateActions } from 'qiankun';
import type { ShellBroadcast } from '@campus/subapp-sdk';
import { lendSharedLibraries } from './shared-libraries.ts';
import { nextTask } from '../../lib/next-task.ts';
import { subAppContainerId, type SubAppDefinition, type SubAppFailure, type SubAppPhase } from '../../lib/sub-apps.ts';
import { SubAppMisfitError } from './sub-app-fit.ts';
import { noteEntryPage, prepareLifecyclesLookup } from './lifecycles-global.ts';

/**
 * The only module that talks to the loader (qiankun 2, DESIGN §8), so it can be swapped. Applications are
 * registered once per page view (qiankun cannot unregister); what changes between users (who may open what,
 * the shared state) is read live by the callbacks the caller passes.
 */

export interface HostCallbacks {
  /** Whether `app` is the one to show at `location` now. */
  isActive: (app: SubAppDefinition, location: Location) => boolean;
  /** The props of `app`: an object whose getters are read at every lifecycle call. */
  propsFor: (app: SubAppDefinition) => object;
  onPhase: (name: string, phase: SubAppPhase | null) => void;
  /**
   * An application failed to unmount: with one application at a time the loader now waits for it forever,
   * so nothing else can mount until the page loads afresh.
   */
  onLoaderStuck: (name: string) => void;
}

/** An entry file the server does not have (404) or could not be reached for: the message names the URL. */
export class EntryFetchError extends Error {
  readonly failure: SubAppFailure;
  constructor(url: string, failure: SubAppFailure, cause?: string) {
    super(`${url}: ${cause ?? failure}`);
    this.name = 'EntryFetchError';
    this.failure = failure;
  }
}

/** Addresses the page's content security policy refused to fetch, as the browser reported them. */
const refusedByPolicy = new Set<string>();
document.addEventListener('securitypolicyviolation', (event) => {
  if (event.effectiveDirective === 'connect-src' || event.effectiveDirective.startsWith('script-src')) refusedByPolicy.add(event.blockedURI);
});

/** Whether the policy refused `url`: the browser reports a refused fetch a moment after it fails, by URL or origin. */
async function refusedByContentPolicy(url: string): Promise<boolean> {
  const absolute = new URL(url, window.location.href);
  for (let wait = 0; wait < 3; wait++) {
    if (refusedByPolicy.has(absolute.href) || refusedByPolicy.has(absolute.origin)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/**
 * The loader's fetch: a missing file is an error (the loader itself would read a 404 page as an empty entry),
 * and the browser's cache rules apply (entries are revalidated, see the server's Cache-Control).
 */
async function entryFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  let response: Response;
  try {
    response = await window.fetch(input, init);
  } catch (error) {
    if (await refusedByContentPolicy(url)) throw new EntryFetchError(url, 'blocked', 'refused by the content security policy');
    throw new EntryFetchError(url, 'unreachable', error instanceof Error ? error.message : undefined);
  }
  if (response.status === 404) throw new EntryFetchError(url, 'not-installed', 'HTTP 404');
  if (!response.ok) throw new EntryFetchError(url, 'unreachable', `HTTP ${response.status}`);
  noteEntryPage(url, response);
  return response;
}

function failureOf(error: unknown): { failure: SubAppFailure; detail: string; params?: Record<string, string> } {
  const detail = error instanceof Error ? error.message : String(error);
  // the loader rethrows the error object it was given, with the application's name added
  if (error instanceof EntryFetchError) return { failure: error.failure, detail };
  // the page says it all, in the user's language
  if (error instanceof SubAppMisfitError) return { failure: 'incompatible', detail: '', params: error.params };
  return { failure: 'broken', detail };
}

const registered = new Set<string>();
/** Applications between their beforeUnmount and afterUnmount hooks. */
const unmounting = new Set<string>();
let started = false;
let broadcast: MicroAppStateActions | null = null;

/** Registers the applications not registered yet and, the first time, starts the loader. */
export function startSubAppHost(apps: SubAppDefinition[], callbacks: HostCallbacks, language: ShellBroadcast['language']): void {
  const fresh = apps.filter((app) => !registered.has(app.name));
  for (const app of fresh) registered.add(app.name);
  registerMicroApps(
    fresh.map((app) => ({
      name: app.name,
      entry: app.entry,
      container: `#${subAppContainerId}`,
      activeRule: (location: Location) => callbacks.isActive(app, location),
      props: callbacks.propsFor(app),
    })),
    {
      // the loader makes the sandbox, runs the application's script and mounts it in one chain of promises: one
      // task of 200 ms and more on a phone. Here the sandbox is made, and before the mount the script has run, so
      // a new task at each lets the page paint and answer in between.
      beforeLoad: async (app, sandboxWindow) => {
        callbacks.onPhase(app.name, { phase: 'loading' });
        if (typeof app.entry === 'string') await prepareLifecyclesLookup(app.name, app.entry, sandboxWindow);
        await nextTask();
      },
      beforeMount: async () => nextTask(),
      afterMount: async (app) => callbacks.onPhase(app.name, { phase: 'mounted' }),
      beforeUnmount: async (app) => {
        unmounting.add(app.name);
      },
      afterUnmount: async (app) => {
        unmounting.delete(app.name);
        callbacks.onPhase(app.name, null);
      },
    },
  );
  if (started) return;
  started = true;
  lendSharedLibraries();
  broadcast = initGlobalState({ language } satisfies ShellBroadcast);
  // load, bootstrap and mount failures of an application (the router's error handler, with the app's name)
  addErrorHandler((error) => {
    const name = error.appOrParcelName;
    if (!registered.has(name)) return;
    if (unmounting.delete(name)) callbacks.onLoaderStuck(name);
    else callbacks.onPhase(name, { phase: 'failed', ...failureOf(error) });
  });
  // a prefetch that fails (an entry on another server that does not answer) fails in the background: nothing to
  // tell anyone there; the page of that system says why when it is opened
  window.addEventListener('unhandledrejection', (event) => {
    if (event.reason instanceof EntryFetchError) event.preventDefault();
  });
  // only installed applications are prefetched, at once: a system without its build would only fail, every page load
  const installed = apps.filter((app) => app.installed).map((app) => app.name);
  start({ prefetch: () => ({ criticalAppNames: installed, minorAppsName: [] }), singular: true, sandbox: { experimentalStyleIsolation: true }, fetch: entryFetch });
}

/** Tells mounted applications about a change of the shared state (the language). */
export function broadcastToSubApps(state: ShellBroadcast): void {
  broadcast?.setGlobalState(state);
}

import { lifecyclesGlobalAttribute } from '@campus/contracts';

/**
 * The loader (qiankun 2) takes as a sub-app's lifecycles the last global its entry script set; a library in the
 * bundle that sets globals of its own after the bundle's (Vue 3's runtime does) hid them ("You need to export
 * lifecycle functions"). An entry script may name its global (`data-lifecycles-global`, the SDK's Vite plugin writes
 * it): the shell then points the loader's last look-up, `window[<app name>]` in the app's sandbox, at that global.
 */

const identifier = /^[A-Za-z_$][\w$]{0,99}$/;
const entryScriptTag = /<script\b[^>]*\sentry(?:[\s=/>])[^>]*>/i;
const namedGlobal = new RegExp(`\\s${lifecyclesGlobalAttribute}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i');

/** The global an entry page's entry script names for its lifecycles, or null (none named, or not a name). */
export function namedLifecyclesGlobal(html: string): string | null {
  const tag = html.match(entryScriptTag)?.[0];
  const match = tag?.match(namedGlobal);
  const name = match?.[1] ?? match?.[2];
  return name && identifier.test(name) ? name : null;
}

/** Makes `sandboxWindow[appName]` read `sandboxWindow[globalName]`, hidden from the loader's look for new globals. */
export function pointAppNameAtGlobal(sandboxWindow: object, appName: string, globalName: string): void {
  if (appName === globalName || Object.prototype.hasOwnProperty.call(sandboxWindow, appName)) return;
  Object.defineProperty(sandboxWindow, appName, { configurable: true, enumerable: false, get: () => (sandboxWindow as Record<string, unknown>)[globalName] });
}

/** The globals entry pages named, by the page's address, as their HTML arrives (the loader fetches it once). */
const namedByEntry = new Map<string, Promise<string | null>>();

const entryKey = (url: string) => new URL(url, window.location.href).href;

/** Notes the global an entry page names; `response` is the loader's fetch of `url`, left for the loader to read. */
export function noteEntryPage(url: string, response: Response): void {
  if (!response.headers.get('content-type')?.includes('text/html')) return;
  namedByEntry.set(entryKey(url), response.clone().text().then(namedLifecyclesGlobal, () => null));
}

/** Before the loader runs `entry`'s scripts in `sandboxWindow`: the app's name answers the global its page named. */
export async function prepareLifecyclesLookup(appName: string, entry: string, sandboxWindow: object): Promise<void> {
  const globalName = await namedByEntry.get(entryKey(entry));
  if (globalName) pointAppNameAtGlobal(sandboxWindow, appName, globalName);
}

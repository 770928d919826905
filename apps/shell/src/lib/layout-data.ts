import type { LanguageCode, SubAppEntry, SystemLogoEntry, UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from './request.ts';
import * as storage from './storage.ts';

/**
 * What the signed-in layout shows besides the menus: the user, the systems' logos and the sub-apps. Fetched beside the
 * menus (at sign-in and when a reload loads them), so the layout's first render has them: each answer that came
 * after it rendered the whole layout again at once, a long task on a phone (issue 27). The layout's queries take
 * what is here (`takeEarly`, `takeEarlyCall`) as their first data; without it they fetch as before.
 */
export interface LayoutData {
  'user-detail': UserInfo;
  'system-logos': SystemLogoEntry[];
  /** The sub-apps to mount: the host starts them after the layout's first paint (features/sub-apps). */
  'sub-app-registry': SubAppEntry[];
}
type Kind = keyof LayoutData;

const paths: Record<Kind, string> = { 'user-detail': apiPaths.userDetail, 'system-logos': apiPaths.systemLogos, 'sub-app-registry': apiPaths.subAppRegistry };
/**
 * What the first paint shows, which the sign-in waits for. The registry is used only after the first paint: waiting
 * for it too made the sign-in wait for an eighth call, beyond the six a browser sends to one server at once.
 */
const shownAtFirstPaint: readonly Kind[] = ['user-detail', 'system-logos'];

/** By session and language: an answer is never shown to another session, nor in another language. */
const answers = new Map<string, unknown>();
/** The calls still under way, by the same key: a query started before its answer came takes the call itself. */
const calls = new Map<string, Promise<unknown>>();
const keyOf = (kind: Kind, language: string) => `${storage.accessToken.get() ?? ''}\n${kind}\n${language}`;

/**
 * Fetches what the layout shows, in `language`; settles when the calls for what the first paint shows have (a
 * failure is left to the layout), while the registry's call may still be under way.
 */
export async function prefetchLayoutData(language: LanguageCode): Promise<void> {
  answers.clear();
  calls.clear();
  const started = (Object.keys(paths) as Kind[]).map((kind) => {
    const key = keyOf(kind, language);
    const call = apiGet(paths[kind], undefined, { language, quiet: true });
    calls.set(key, call);
    const settled = call.then(
      (value) => {
        if (calls.get(key) !== call) return;
        calls.delete(key);
        answers.set(key, value);
      },
      () => {
        // the layout's own query asks again and says what went wrong
        if (calls.get(key) === call) calls.delete(key);
      },
    );
    return { kind, settled };
  });
  await Promise.all(started.filter(({ kind }) => shownAtFirstPaint.includes(kind)).map(({ settled }) => settled));
}

/** The prefetched answer of `kind` in `language` for this session, once; undefined when there is none (yet). */
export function takeEarly<K extends Kind>(kind: K, language: string): LayoutData[K] | undefined {
  const key = keyOf(kind, language);
  const value = answers.get(key) as LayoutData[K] | undefined;
  answers.delete(key);
  return value;
}

/** The prefetch's call of `kind` in `language` for this session while it is under way, once; else undefined. */
export function takeEarlyCall<K extends Kind>(kind: K, language: string): Promise<LayoutData[K]> | undefined {
  const key = keyOf(kind, language);
  const call = calls.get(key) as Promise<LayoutData[K]> | undefined;
  calls.delete(key);
  return call;
}

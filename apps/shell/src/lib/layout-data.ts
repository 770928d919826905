import type { LanguageCode, SubAppEntry, SystemLogoEntry, UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from './request.ts';
import * as storage from './storage.ts';

/**
 * What the signed-in layout shows besides the menus: the user, the systems' logos and the sub-apps. Fetched beside the
 * menus (at sign-in and when a reload loads them), so the layout's first render has them: each answer that came
 * after it rendered the whole layout again at once, a long task on a phone (issue 27). The layout's queries take
 * what is here (`takeEarly`) as their first data; without it they fetch as before.
 */
export interface LayoutData {
  'user-detail': UserInfo;
  'system-logos': SystemLogoEntry[];
  /** The sub-apps to mount: the host starts in the layout's first effects instead of a round trip later. */
  'sub-app-registry': SubAppEntry[];
}
type Kind = keyof LayoutData;

const paths: Record<Kind, string> = { 'user-detail': apiPaths.userDetail, 'system-logos': apiPaths.systemLogos, 'sub-app-registry': apiPaths.subAppRegistry };
/** By session and language: an answer is never shown to another session, nor in another language. */
const early = new Map<string, unknown>();
const keyOf = (kind: Kind, language: string) => `${storage.accessToken.get() ?? ''}\n${kind}\n${language}`;

/** Fetches what the layout shows, in `language`; settles when every call has (a failure is left to the layout). */
export async function prefetchLayoutData(language: LanguageCode): Promise<void> {
  early.clear();
  await Promise.all(
    (Object.keys(paths) as Kind[]).map(async (kind) => {
      const key = keyOf(kind, language);
      try {
        const value = await apiGet(paths[kind], undefined, { language, quiet: true });
        if (key === keyOf(kind, language)) early.set(key, value);
      } catch {
        // the layout's own query asks again and says what went wrong
      }
    }),
  );
}

/** The prefetched answer of `kind` in `language` for this session, once; undefined when there is none. */
export function takeEarly<K extends Kind>(kind: K, language: string): LayoutData[K] | undefined {
  const key = keyOf(kind, language);
  const value = early.get(key) as LayoutData[K] | undefined;
  early.delete(key);
  return value;
}

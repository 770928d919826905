/**
 * The shell's translations: the texts of each language by namespace, looked up as `namespace:dotted.key` (the
 * namespace `translation` when none is named), with {{name}} placeholders and plural forms (`key_one`,
 * `key_other`, … as Intl.PluralRules names them). A text missing in the language shown comes from the fallback
 * language when its texts are in, else the default value, else the key. Written for the shell in place of
 * i18next, whose size the login page's first load could not afford (issue 27); the React side is
 * use-translation.ts.
 */

/** One namespace's texts in one language: nested objects of strings, as in locales/*.json. */
export interface Texts {
  [key: string]: unknown;
}

export interface TranslateOptions {
  /** Picks the plural form and fills {{count}}. */
  count?: number;
  /** The text when the key has none, in the language or the fallback. */
  defaultValue?: string;
  /** A language other than the one shown. */
  lng?: string;
  /** The values of the {{name}} placeholders. */
  [name: string]: unknown;
}

export type TranslateFunction = (key: string, options?: TranslateOptions) => string;

export type TranslatorEvent = 'languageChanged' | 'added';

export interface Translator {
  /** The language shown, always one of the supported ones. */
  readonly language: string;
  /** Counts the changes of language and of texts: a view that shows texts draws again when it moves. */
  readonly revision: number;
  t: TranslateFunction;
  /** `t` in `language` whatever the language shown (an `lng` option still wins). */
  getFixedT(language: string): TranslateFunction;
  /** Switches at once; a language not supported becomes the closest supported one, else the fallback. */
  changeLanguage(language: string): Promise<TranslateFunction>;
  hasResourceBundle(language: string, namespace: string): boolean;
  /** `deep` merges nested objects into the texts already there, `overwrite` lets the new texts replace old ones. */
  addResourceBundle(language: string, namespace: string, texts: Texts, deep?: boolean, overwrite?: boolean): void;
  /** `languageChanged` hears the new language; `added` the language whose texts came. */
  on(event: TranslatorEvent, listener: (language: string) => void): void;
  off(event: TranslatorEvent, listener: (language: string) => void): void;
}

export interface TranslatorSettings {
  language: string;
  fallbackLanguage: string;
  supportedLanguages: readonly string[];
}

const defaultNamespace = 'translation';
const placeholder = /\{\{(.+?)\}\}/g;

function isTexts(value: unknown): value is Texts {
  return typeof value === 'object' && value !== null;
}

/** The text at a dotted key; a key that is itself dotted (a server's menu id) is found too. Groups are not texts. */
function find(texts: Texts | undefined, key: string): string | undefined {
  let node: unknown = texts;
  for (const part of key.split('.')) node = isTexts(node) && Object.hasOwn(node, part) ? node[part] : undefined;
  if (typeof node !== 'string' && texts && Object.hasOwn(texts, key)) node = texts[key];
  return typeof node === 'string' ? node : undefined;
}

/**
 * `source` merged into a copy of `target`. The copies have no prototype, so any server-given key (`__proto__`,
 * `constructor`) is a plain entry; neither argument is changed.
 */
function merge(target: Texts, source: Texts, overwrite: boolean): Texts {
  const merged: Texts = Object.assign(Object.create(null), target);
  for (const [key, value] of Object.entries(source)) {
    const old = merged[key];
    if (isTexts(old) && isTexts(value)) merged[key] = merge(old, value, overwrite);
    else if (old === undefined || overwrite) merged[key] = value;
  }
  return merged;
}

/** Placeholders filled as i18next did: no HTML escaping (React escapes), null is empty, a value not given leaves its placeholder. */
function interpolate(text: string, values: TranslateOptions | undefined): string {
  return text.replace(placeholder, (whole, name: string) => {
    const value = values?.[name.trim()];
    return value === undefined ? whole : value === null ? '' : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralForm(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

export function createTranslator({ language, fallbackLanguage, supportedLanguages }: TranslatorSettings): Translator {
  const bundles = new Map<string, Texts>();
  const listeners: Record<TranslatorEvent, Set<(language: string) => void>> = { languageChanged: new Set(), added: new Set() };
  let revision = 0;

  const bundleId = (lng: string, namespace: string) => `${lng}/${namespace}`;
  const primary = (code: string) => code.split('-')[0]!.toLowerCase();
  const supported = (code: string) =>
    supportedLanguages.find((known) => known.toLowerCase() === code.toLowerCase()) ??
    supportedLanguages.find((known) => primary(known) === primary(code)) ??
    fallbackLanguage;

  let current = supported(language);

  function emit(event: TranslatorEvent, lng: string): void {
    revision += 1;
    for (const listener of [...listeners[event]]) listener(lng);
  }

  function t(key: string, options?: TranslateOptions): string {
    // a text with spaces (a server's message shown through t) has no namespace, whatever colon it holds
    const colon = /\s/.test(key) ? -1 : key.indexOf(':');
    const namespace = colon > 0 ? key.slice(0, colon) : defaultNamespace;
    const path = colon > 0 ? key.slice(colon + 1) : key;
    const count = typeof options?.count === 'number' ? options.count : undefined;
    const shown = options?.lng ? supported(options.lng) : current;
    let text: string | undefined;
    for (const lng of new Set([shown, fallbackLanguage])) {
      const texts = bundles.get(bundleId(lng, namespace));
      text = (count === undefined ? undefined : find(texts, `${path}_${pluralForm(lng, count)}`)) ?? find(texts, path);
      if (text !== undefined) break;
    }
    // a missing text shows its key without the namespace: a menu title not yet registered shows the page's id
    return interpolate(text ?? options?.defaultValue ?? path, options);
  }

  return {
    get language() {
      return current;
    },
    get revision() {
      return revision;
    },
    t,
    getFixedT: (lng) => (key, options) => t(key, { ...options, lng: options?.lng ?? lng }),
    changeLanguage(lng) {
      const next = supported(lng);
      if (next !== current) {
        current = next;
        emit('languageChanged', next);
      }
      return Promise.resolve(t);
    },
    hasResourceBundle: (lng, namespace) => bundles.has(bundleId(lng, namespace)),
    addResourceBundle(lng, namespace, texts, deep = false, overwrite = false) {
      const id = bundleId(lng, namespace);
      const old = bundles.get(id) ?? {};
      bundles.set(id, deep ? merge(old, texts, overwrite) : Object.assign(Object.create(null), old, texts));
      emit('added', lng);
    },
    on: (event, listener) => void listeners[event].add(listener),
    off: (event, listener) => void listeners[event].delete(listener),
  };
}

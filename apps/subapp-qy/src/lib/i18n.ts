import type { ShellLanguage } from '@campus/subapp-sdk';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import zhMO from '../locales/zh-MO.json';

type Tree = { [key: string]: string | Tree };
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the sub-app's dictionary, e.g. 'home.greeting.morning'. */
export type MessageKey = Leaves<typeof enUS>;

export function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const dictionaries: Record<ShellLanguage, Map<string, string>> = {
  'en-US': flatten(enUS),
  'zh-CN': flatten(zhCN),
  'zh-MO': flatten(zhMO),
};

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The text of a key in one language ({{name}} placeholders filled in); zh-CN, then the key, when missing. */
export function translator(language: ShellLanguage): Translate {
  const dictionary = dictionaries[language];
  return (key, values) => {
    const text = dictionary.get(key) ?? dictionaries['zh-CN'].get(key) ?? key;
    if (!values) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
  };
}

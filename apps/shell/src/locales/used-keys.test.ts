import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';
import zhMO from './zh-MO.json';

// Every translation key the code names literally must be a text in all three languages: a missing key shows the
// key itself, and so does a key that names a group of texts (under i18next it showed a "returned an object" error,
// issue 15).
type Tree = { [key: string]: string | Tree };
const locales: Record<string, Tree> = { 'en-US': enUS, 'zh-CN': zhCN, 'zh-MO': zhMO };
const sourceRoot = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The literal keys of t('…'), i18n.t('…') and i18nKey="…" calls; keys built at run time are not seen. */
export function usedKeys(source: string): string[] {
  const keys = new Set<string>();
  for (const match of source.matchAll(/\bt\(\s*(['"])([A-Za-z0-9_.-]+)\1/g)) keys.add(match[2]!);
  for (const match of source.matchAll(/i18nKey=(['"])([A-Za-z0-9_.-]+)\1/g)) keys.add(match[2]!);
  return [...keys].filter((key) => key.includes('.'));
}

function lookup(tree: Tree, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Tree)[part] : undefined), tree);
}

describe('the translation keys the code uses', () => {
  const files = sourceFiles(sourceRoot);
  const uses = files.flatMap((file) => usedKeys(fs.readFileSync(file, 'utf8')).map((key) => ({ key, file: path.relative(sourceRoot, file) })));

  it('finds the keys (the check itself works)', () => {
    expect(uses.length).toBeGreaterThan(300);
    expect(usedKeys(`t('a.b'); t("c.d", { x }); <Trans i18nKey="e.f" />; t(\`g.\${h}\`)`)).toEqual(['a.b', 'c.d', 'e.f']);
  });

  it('each is a text in en-US, zh-CN and zh-MO, never missing and never a group of texts', () => {
    const problems: string[] = [];
    for (const { key, file } of uses) {
      for (const [language, tree] of Object.entries(locales)) {
        // plural forms live under key_one / key_other
        const value = lookup(tree, key) ?? lookup(tree, `${key}_other`);
        if (typeof value !== 'string') problems.push(`${file}: ${key} is ${value === undefined ? 'missing' : 'a group of texts'} in ${language}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

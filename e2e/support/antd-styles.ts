import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

/**
 * The shell's build cuts antd's stylesheet and sends each part with the screens that import its components
 * (apps/shell/vite-plugins/antd-styles.ts). A component drawn by another one, or a new screen, can end up
 * on the page without its rules: it then shows as a bare browser control. This names every class on the
 * page that antd's full stylesheet styles and no stylesheet on the page does.
 */
const shellRequire = createRequire(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/shell/package.json'));
const antdClasses = [...new Set(readFileSync(shellRequire.resolve('antd/dist/antd.css'), 'utf8').match(/\.ant-[a-z0-9-]+/g) ?? [])].map((name) => name.slice(1));

export async function antdClassesWithoutStyles(page: Page): Promise<string[]> {
  return page.evaluate((styled) => {
    const loaded = new Set<string>();
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) for (const name of rule.selectorText.match(/\.ant-[a-z0-9-]+/g) ?? []) loaded.add(name.slice(1));
        if ('cssRules' in rule && rule.cssRules) walk(rule.cssRules as CSSRuleList);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      try {
        walk(sheet.cssRules);
      } catch {
        // another origin's sheet: not the shell's
      }
    }
    const wanted = new Set(styled);
    const onPage = new Set<string>();
    for (const element of Array.from(document.querySelectorAll('[class*="ant-"]'))) {
      for (const name of Array.from(element.classList)) if (wanted.has(name) && !loaded.has(name)) onPage.add(name);
    }
    return [...onPage].sort();
  }, antdClasses);
}

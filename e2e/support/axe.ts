import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { antdClassesWithoutStyles } from './antd-styles.ts';

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is: its critical and serious findings, one line each; and,
 * as serious as those, antd components on the page whose styles did not come with it.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await animationsSettled(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const unstyled = await antdClassesWithoutStyles(page);
  return result.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
    .concat(unstyled.length > 0 ? [`serious: antd classes on the page without their styles: ${unstyled.join(' ')}`] : []);
}

/**
 * axe judges the page at rest: half-way through a dialog's opening animation its colours are blended with the page
 * behind (a Confirm button read as too pale, seen once on a loaded machine). Endless ones (spinners) do not count.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity));
}

import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';

/**
 * A table whose rows scroll under a fixed header (issue 27, item 10): one <table>, so every cell keeps its
 * column header for a screen reader; its scrolling box is a named region the keyboard can focus; and the header
 * stays in view when the rows scroll (the box is made short here when the rows fit, to see it scroll).
 */
export async function expectOneTableWithHeaders(scope: Locator, name: string): Promise<void> {
  const region = scope.getByRole('region', { name, exact: true });
  await expect(region).toBeVisible();
  await expect(region.locator('table')).toHaveCount(1);
  const table = region.locator('table');
  const titles = table.locator('thead th');
  const firstRow = table.locator('tbody tr.ant-table-row').first();
  await expect(firstRow).toBeVisible();
  // a data cell finds its column header in its own table, as the accessibility tree tells a screen reader
  await expect(table.getByRole('columnheader').first()).toBeVisible();
  expect(await firstRow.locator('td').count()).toBe(await titles.count());

  await region.focus();
  await expect(region).toBeFocused();
  await region.evaluate((box: HTMLElement) => {
    if (box.scrollHeight <= box.clientHeight + 1) box.style.maxHeight = `${Math.max(80, box.scrollHeight / 2)}px`;
  });
  await region.press('End');
  await expect.poll(() => region.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
  const [boxTop, headerTop] = await Promise.all([region.evaluate((box) => box.getBoundingClientRect().top), titles.first().evaluate((th) => th.getBoundingClientRect().top)]);
  expect(Math.abs(headerTop - boxTop)).toBeLessThanOrEqual(1);
  await region.evaluate((box: HTMLElement) => {
    box.style.maxHeight = '';
    box.scrollTop = 0;
  });
}

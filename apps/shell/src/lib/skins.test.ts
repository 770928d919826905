import { describe, expect, it } from 'vitest';
import { skinCodes } from '@campus/contracts';
import { skinOf } from './skins.ts';

/** WCAG 2.1 contrast ratio of two opaque #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe('skins', () => {
  it.each(skinCodes)('%s: the navigation\'s current entries read at 4.5:1 or more', (code) => {
    const skin = skinOf(code);
    const primary = skin.theme.token!.colorPrimary!;
    // the current page (primary on its selection background), a group above it (primary on the side bar)
    expect(contrast(primary, skin.chrome.selectedBg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(primary, skin.chrome.siderBg)).toBeGreaterThanOrEqual(4.5);
    // the header's current system: white on the primary colour (dark headers), the primary colour on the light one
    if (skin.chrome.menuTheme === 'dark') expect(contrast('#ffffff', primary)).toBeGreaterThanOrEqual(4.5);
    else expect(contrast(primary, skin.chrome.headerBg)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(skinCodes)('%s: a primary button keeps white text at 4.5:1 under the pointer and pressed (issue 48, item 11)', (code) => {
    const token = skinOf(code).theme.token!;
    // set, not left to antd's algorithm (which derives a lighter hover colour)
    expect(token.colorPrimaryHover).toMatch(/^#[0-9a-f]{6}$/);
    expect(token.colorPrimaryActive).toMatch(/^#[0-9a-f]{6}$/);
    for (const colour of [token.colorPrimary!, token.colorPrimaryHover!, token.colorPrimaryActive!]) expect(contrast('#ffffff', colour), colour).toBeGreaterThanOrEqual(4.5);
  });
});

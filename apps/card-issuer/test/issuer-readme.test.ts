import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain build script without type declarations
import { issuerReadme } from '../../../scripts/issuer-readme.mjs';

const readme = issuerReadme as (platform: string) => string;
/** The file's three parts: English, simplified and traditional Chinese, each under its own title. */
const parts = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n\r?\n(?=校[园園]发?發?卡器)/u);

describe('README.txt of the issuer downloads', () => {
  for (const platform of ['win-x64', 'linux-x64']) {
    it(`${platform}: English, simplified and traditional Chinese, each naming every setting, command and address`, () => {
      const [en, zhCN, zhMO, ...more] = parts(readme(platform));
      expect(more).toEqual([]);
      expect(zhCN).toMatch(/^校园发卡器/);
      expect(zhMO).toMatch(/^校園發卡器/);
      const names = (text: string) => [...text.matchAll(/\b(?:CARD_[A-Z_]+|https?:\/\/[\w.:/-]*[\w/]|[\w-]+\.(?:cmd|sh|txt|log|md)|pcsc-\w+|%\w+%)/g)].map((m) => m[0]).sort();
      expect(names(zhCN!)).toEqual(names(en!));
      expect(names(zhMO!)).toEqual(names(en!));
      expect(en).toContain(platform.startsWith('win') ? 'install-service.cmd' : './start.sh');
    });
  }

  it('the Windows one has CRLF line ends and a byte-order mark (Notepad), the Linux one neither', () => {
    const windows = readme('win-x64');
    expect(windows.startsWith('\uFEFF')).toBe(true);
    expect(windows.replaceAll('\r\n', '')).not.toContain('\n');
    const linux = readme('linux-x64');
    expect(linux.startsWith('\uFEFF')).toBe(false);
    expect(linux).not.toContain('\r');
  });
});

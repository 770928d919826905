import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimumIssuerVersion, readerCodes } from '@campus/contracts';

const guide = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/operator-pc.md'), 'utf8');

/** The rows of the guide's reader code table: code → what it means, what the operator does. */
function codeRows(): Map<number, string[]> {
  const rows = new Map<number, string[]>();
  for (const line of guide.split('\n')) {
    const cells = /^\| (99\d{4}) \|(.*)\|$/.exec(line);
    if (cells) rows.set(Number(cells[1]), cells[2]!.split('|').map((cell) => cell.trim()));
  }
  return rows;
}

describe('docs/operator-pc.md', () => {
  it('names every reader code once, each with what it means and what the operator does', () => {
    const rows = codeRows();
    const codes = Object.values(readerCodes).filter((code) => code !== 0);
    expect([...rows.keys()].sort()).toEqual([...codes].sort());
    for (const [code, [meaning, action]] of rows) {
      expect(meaning, String(code)).toMatch(/\w{3}/);
      expect(action, String(code)).toMatch(/\w{3}/);
    }
  });

  it('states the version rule the contracts hold', () => {
    expect(guide).toContain(`\`minimumIssuerVersion\`, now \`${minimumIssuerVersion}\``);
  });
});

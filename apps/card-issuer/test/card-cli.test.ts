import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMotherCard, sm3Hex } from '@campus/card-crypto';
import { runCardCli } from '../src/cli/card.ts';
import { customerNoProblem } from '../src/customer-number.ts';
import { VirtualReader } from '../src/readers/virtual-reader.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

function cli(dataDir: string, ...args: string[]): string[] {
  const lines: string[] = [];
  runCardCli([...args, '--data-dir', dataDir], {}, (line) => lines.push(line));
  return lines;
}

describe('npm run card', () => {
  it("makes the vendor's mother card, blank cards, places and removes them, and sets faults", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-card-cli-'));
    expect(cli(dataDir, 'mother', '--customer-no', '10001', '--customer-pwd', 'Customer#2026', '--fixed-no', 'e0040150', '--place')).toEqual([
      'made mother card E0040150 for customer 10001',
      'card E0040150 is on the reader',
    ]);
    const reader = new VirtualReader(dataDir);
    const { image } = await reader.read();
    expect(openMotherCard(image, sm3Hex('Customer#2026')).card.customerNo).toBe('10001');
    const [made] = cli(dataDir, 'blank');
    const blank = /made blank card ([0-9A-F]{8})/.exec(made ?? '')?.[1] ?? '';
    expect(cli(dataDir, 'list')).toEqual(expect.arrayContaining(['* E0040150  mother', `  ${blank}  blank`]));
    cli(dataDir, 'place', blank);
    expect((await reader.status()).card).toEqual({ fixedNo: blank });
    cli(dataDir, 'remove');
    expect((await reader.status()).card).toBeNull();
    expect(cli(dataDir, 'fail', '--op', 'write', '--code', '990322', '--times', '2')).toEqual(['the next 2 writes will fail with 990322']);
    expect(reader.faults()).toEqual([{ op: 'write', code: 990322, remaining: 2 }]);
  });

  it.each([
    [['mother', '--customer-no', '', '--customer-pwd', 'x'], /please enter the customer number/],
    [['mother', '--customer-no', '12a', '--customer-pwd', 'x'], /digits only/],
    [['mother', '--customer-no', '00123', '--customer-pwd', 'x'], /must not start with 0: use 123/],
    [['mother', '--customer-no', '123456789', '--customer-pwd', 'x'], /at most 8 digits/],
    [['mother', '--customer-no', '123'], /customer password/],
    [['fail', '--op', 'erase', '--code', '990481'], /--op read or --op write/],
    [['fail', '--op', 'read', '--code', '12345'], /--code must be a reader code/],
    [['place'], /needs the fixed number/],
    [['place', 'nothex'], /fixed number/],
    [['frob'], /unknown command/],
  ])('%j is refused with a clear message', (args, message) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-card-cli-'));
    expect(() => cli(dataDir, ...args)).toThrow(message);
  });

  it('the customer number rules of spec §5', () => {
    expect(customerNoProblem('10001')).toBeNull();
    expect(customerNoProblem('99999999')).toBeNull();
    expect(customerNoProblem('0')).toMatch(/must not start with 0/);
  });

  it('runs as a command: exit 2 and a hint on bad input', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/card-issuer/src/cli/card.ts'), 'frob'], { cwd: repoRoot, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frob"');
    expect(result.stderr).toContain('npm run card -- --help');
  });
});

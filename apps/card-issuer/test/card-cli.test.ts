import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMotherCard, sm3Hex } from '@campus/card-crypto';
import { runCardCli } from '../src/cli/card.ts';
import { runCardCommand } from '../src/cli/card-commands.ts';
import { customerNoProblem } from '../src/customer-number.ts';
import { VirtualReader } from '../src/readers/virtual-reader.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

function cli(dataDir: string, ...args: string[]): string[] {
  const lines: string[] = [];
  runCardCli([...args, '--data-dir', dataDir], {}, (line) => lines.push(line));
  return lines;
}

/** `npm run card -- …` as a process, in the language its environment gives it (the PC's language, pc-language.ts). */
function cardProcess(args: string[], env: Record<string, string>) {
  const { CARD_ISSUER_LANG: _lang, LC_ALL: _all, LC_MESSAGES: _messages, LANG: _lang2, ...rest } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/card-issuer/src/cli/card.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...rest, ...env } });
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
    expect(customerNoProblem('0')?.['en-US']).toBe('the customer number must not start with 0: use a number above 0');
    expect(customerNoProblem('00123')?.['zh-MO']).toBe('客戶編號不能以 0 開頭：請使用 123');
  });

  it('runs as a command: exit 2 and a hint on bad input', () => {
    const result = cardProcess(['frob'], { CARD_ISSUER_LANG: 'en-US' });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('card: unknown command "frob"\nRun "npm run card -- --help" for the commands.\n');
  });

  it("speaks the PC's language: CARD_ISSUER_LANG, else LANG (zh_TW is Traditional Chinese, zh-MO)", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-card-cli-'));
    const simplified = cardProcess(['blank', '--fixed-no', 'e0040151', '--place', '--data-dir', dataDir], { CARD_ISSUER_LANG: 'zh-CN', LANG: 'en_US.UTF-8' });
    expect(simplified.status).toBe(0);
    expect(simplified.stdout).toBe('已制作空白卡 E0040151\n卡片 E0040151 已在读卡器上\n');
    const traditional = cardProcess(['frob'], { LANG: 'zh_TW.UTF-8' });
    expect(traditional.status).toBe(2);
    expect(traditional.stderr).toBe('card: 未知命令「frob」\n執行「npm run card -- --help」查看可用的命令。\n');
    const help = cardProcess(['--help'], { LANG: 'zh_TW.UTF-8' });
    expect(help.stdout).toMatch(/^用法：npm run card -- <命令> \[選項\]\n/);
    expect(help.stdout).toContain('pcsc-format                   在還沒有資料檔案的卡片上建立資料檔案 CARD_FILE_ID（544 位元組）');
  });

  it('says what it did and why it refuses in zh-CN and zh-MO, and names the command of a download in its help', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-card-cli-'));
    const run = async (language: 'zh-CN' | 'zh-MO', ...args: string[]) => {
      const lines: string[] = [];
      let errors = '';
      const code = await runCardCommand([...args, '--data-dir', dataDir], { language, program: 'card.cmd', env: {}, out: (line) => lines.push(line), err: (text) => (errors += text) });
      return { code, lines, errors };
    };
    expect((await run('zh-CN', 'mother', '--customer-no', '10001', '--customer-pwd', 'Customer#2026', '--fixed-no', 'e0040150', '--place')).lines).toEqual([
      '已为客户 10001 制作母卡 E0040150',
      '卡片 E0040150 已在读卡器上',
    ]);
    expect((await run('zh-MO', 'list')).lines).toEqual(['* E0040150  母卡']);
    expect((await run('zh-MO', 'fail', '--op', 'read', '--code', '990481', '--times', '3')).lines).toEqual(['接下來的 3 次讀取將以 990481 失敗']);
    expect((await run('zh-CN', 'remove')).lines).toEqual(['读卡器上没有卡片']);
    expect(await run('zh-CN', 'mother', '--customer-no', '00123', '--customer-pwd', 'x')).toEqual({
      code: 2,
      lines: [],
      errors: 'card: 客户编号不能以 0 开头：请使用 123\n运行“card.cmd --help”查看可用的命令。\n',
    });
    expect((await run('zh-MO', 'place', 'nothex')).errors).toBe('card: 卡片固定號為 8 到 20 位十六進位數字，實際為「nothex」\n');
    expect((await run('zh-MO', 'blank', '--fixed-no', 'E0040150')).errors).toBe('card: 卡片 E0040150 已存在\n');
    expect((await run('zh-CN', 'list', '--frob')).errors).toMatch(/^card: 无法识别的选项：.*--frob/);
    expect((await run('zh-MO', '--help')).lines[0]).toMatch(/^用法：card\.cmd <命令> \[選項\]\n/);
  });
});

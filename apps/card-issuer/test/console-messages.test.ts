import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageCodes, readerCodes } from '@campus/contracts';
import type { Localised } from '@campus/contracts';
import { cardCommandMessages } from '../src/cli/card-command-messages.ts';
import { consoleMessages } from '../src/console-messages.ts';
import { IssuerConfigError, loadIssuerConfig } from '../src/config.ts';
import { customerNoProblems } from '../src/customer-number.ts';
import { failureText } from '../src/localised.ts';
import { ReaderError } from '../src/readers/card-reader.ts';
import { PcscUnavailableError } from '../src/readers/pcsc/pcsc-binding.ts';
import { pcscProblems } from '../src/readers/pcsc/pcsc-problems.ts';
import { openReader } from '../src/readers/reader-factory.ts';
import { virtualReaderProblems } from '../src/readers/virtual-reader.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

const messageModules = { consoleMessages, cardCommandMessages, customerNoProblems, virtualReaderProblems };

const isLocalised = (value: unknown): value is Localised => typeof value === 'object' && value !== null && 'en-US' in value;

/** Every entry of a messages module, by its path: a text in three languages, or one made of the values it takes. */
function* entriesOf(prefix: string, value: unknown): Generator<[string, Localised, string[]]> {
  if (typeof value === 'function') {
    const values = Array.from({ length: value.length }, (_, i) => `«value${i}»`);
    yield [prefix, (value as (...args: string[]) => Localised)(...values), values];
  } else if (isLocalised(value)) {
    yield [prefix, value, []];
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) yield* entriesOf(`${prefix}.${key}`, inner);
  } else {
    throw new Error(`${prefix} is neither a message nor a group of messages`);
  }
}

// characters whose Traditional form differs: one of them in zh-MO is a Simplified text left there, and the other way
const simplifiedOnly = /[读发设务运启动请检钥码数据库载压为时会来对说还没进从网络电开关机户编号应该无实际须员录统错误这个们门态结间试验证让将写认识别选项显处资档]/u;
const traditionalOnly = /[讀發設務運啟動請檢鑰碼數據庫載壓為時會來對說還沒進從網絡電開關機戶編號應該無實際須員錄統錯誤這個們門態結間試驗證讓將寫認識別選項顯處資檔]/u;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The issuer's environment without any language of the PC running the tests. */
function issuerEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const { CARD_ISSUER_LANG: _chosen, LC_ALL: _all, LC_MESSAGES: _messages, LANG: _lang, ...rest } = process.env;
  return { ...rest, ...env };
}

describe("what the issuer prints to its console, in the PC's language", () => {
  it('has every message in en-US, zh-CN and zh-MO, each with every value it is given', () => {
    const seen: string[] = [];
    for (const [name, module] of Object.entries(messageModules)) {
      for (const [entry, message, values] of entriesOf(name, module)) {
        seen.push(entry);
        expect(Object.keys(message).sort(), entry).toEqual([...languageCodes].sort());
        for (const language of languageCodes) {
          expect(message[language], `${entry} ${language}`).toMatch(/\S/);
          for (const value of values) expect(message[language], `${entry} ${language} shows ${value}`).toContain(value);
        }
        expect(message['zh-CN'], `${entry} zh-CN is translated`).not.toBe(message['en-US']);
        expect(message['zh-MO'], `${entry} zh-MO is translated`).not.toBe(message['en-US']);
        expect(message['zh-MO'], `${entry} zh-MO is Traditional Chinese`).not.toMatch(simplifiedOnly);
        expect(message['zh-CN'], `${entry} zh-CN is Simplified Chinese`).not.toMatch(traditionalOnly);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['consoleMessages.banner', 'consoleMessages.notAPort', 'cardCommandMessages.usage', 'cardCommandMessages.cardKinds.mother']));
  });

  it('says a configuration error in zh-CN and zh-MO, the variable named', () => {
    const error = (() => {
      try {
        loadIssuerConfig({ CARD_ISSUER_PORT: 'abc' });
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(IssuerConfigError);
    expect((error as IssuerConfigError).message).toBe('Invalid configuration: CARD_ISSUER_PORT must be a port number, got "abc"');
    expect((error as IssuerConfigError).localised['zh-CN']).toBe('配置无效：CARD_ISSUER_PORT 必须是端口号，实际为“abc”');
    expect(() => loadIssuerConfig({ CARD_FILE_ID: '3F00' })).toThrow(/^Invalid configuration: CARD_FILE_ID must be the 4 hex digits/);
  });

  it("a reader code's message and its detail come out in the PC's language", () => {
    const error = new ReaderError(readerCodes.readerNotConnected, pcscProblems.noReaders());
    expect(failureText(error, 'zh-MO')).toBe(error.messageIn('zh-MO'));
    expect(failureText(error, 'zh-MO')).toContain(pcscProblems.noReaders()['zh-MO']);
    expect(consoleMessages.pcscProblem(failureText(error, 'zh-CN'))['zh-CN']).toBe(`PC/SC：${error.messageIn('zh-CN')}`);
  });

  it('tells what to do when the PC/SC library does not load, for each system, in each language', () => {
    const linux = new PcscUnavailableError('libpcsclite.so.1', new Error('cannot open shared object file'), 'linux');
    expect(linux.message).toBe(
      'CARD_READER=pcsc needs the PC/SC library libpcsclite.so.1, which did not load (cannot open shared object file). Install the PC/SC service and its library: sudo apt-get install pcscd libpcsclite1 (docs/operator-pc.md).',
    );
    expect(linux.localised['zh-CN']).toBe(
      'CARD_READER=pcsc 需要 PC/SC 库 libpcsclite.so.1，但它未能加载（cannot open shared object file）。请安装 PC/SC 服务及其库：sudo apt-get install pcscd libpcsclite1（见 docs/operator-pc.md）。',
    );
    expect(new PcscUnavailableError('winscard.dll', 'gone', 'win32').localised['zh-MO']).toContain('此 Windows 可能已被移除智慧卡支援');
  });

  it('notes the demo cards it made at start in each language', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-console-'));
    const { notes } = await openReader(loadIssuerConfig({ CARD_ISSUER_DATA_DIR: dataDir, CARD_ISSUER_DEMO_MOTHER: '10001:Customer#2026' }));
    expect(notes.map((note) => note['zh-CN'])).toEqual(['已制作演示卡片：客户 10001 的母卡 DE000001（在读卡器上）；空白卡 DE000002；空白卡 DE000003；空白卡 DE000004']);
    expect(notes[0]?.['en-US']).toBe('Demo cards made: mother card DE000001 for customer 10001 (on the reader); blank card DE000002; blank card DE000003; blank card DE000004');
  });

  it('prints its banner and its shutdown in zh-CN with CARD_ISSUER_LANG=zh-CN', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-console-'));
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/card-issuer/src/main.ts')], {
      cwd: repoRoot,
      env: issuerEnv({ CARD_ISSUER_LANG: 'zh-CN', LANG: 'en_US.UTF-8', CARD_ISSUER_PORT: String(port), CARD_ISSUER_DATA_DIR: dataDir, CARD_ISSUER_ALLOWED_ORIGINS: 'http://127.0.0.1:6300' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 200 && !stdout.includes('响应以下平台地址的请求'); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stdout).toContain(`\n发卡器：http://127.0.0.1:${port}/（Campus virtual reader；卡片位于 ${dataDir}）\n响应以下平台地址的请求：http://127.0.0.1:6300\n`);
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
      expect(stdout).toContain('SIGTERM：发卡器正在关闭\n');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('stops on a bad setting with the error in zh-MO when LANG is zh_TW.UTF-8, and in English under CARD_ISSUER_LANG=en-US', () => {
    const start = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'apps/card-issuer/src/main.ts')], { cwd: repoRoot, encoding: 'utf8', env: issuerEnv({ CARD_READER: 'nfc', ...env }) });
    const traditional = start({ LANG: 'zh_TW.UTF-8' });
    expect(traditional.status).toBe(2);
    expect(traditional.stderr).toBe('設定無效：CARD_READER 必須為 virtual 或 pcsc，實際為「nfc」\n請參閱操作員電腦指南（docs/operator-pc.md）中的「What the PC needs」一節。\n');
    const english = start({ LANG: 'zh_TW.UTF-8', CARD_ISSUER_LANG: 'en-US' });
    expect(english.stderr).toBe('Invalid configuration: CARD_READER must be virtual or pcsc, got "nfc"\nSee the operator PC guide (docs/operator-pc.md), "What the PC needs".\n');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sm2 } from 'sm-crypto-v2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blankImage, buildAdminCard, classifyCard, makeMotherCard, openMotherCard, sm3Hex, systemKeyId, trimImage } from '@campus/card-crypto';
import { cardIssuerPaths, readerCodes } from '@campus/contracts';
import { buildIssuer } from '../src/app.ts';
import { runPcscCardCli } from '../src/cli/card.ts';
import { runCardCommand } from '../src/cli/card-commands.ts';
import { loadIssuerConfig } from '../src/config.ts';
import { ReaderError } from '../src/readers/card-reader.ts';
import { cardFileSize } from '../src/readers/pcsc/card-file-layout.ts';
import { loadPcscBinding } from '../src/readers/pcsc/pcsc-binding.ts';
import type { Phase } from '../src/readers/pcsc/pcsc-problems.ts';
import { pcscProblems } from '../src/readers/pcsc/pcsc-problems.ts';
import { PcscReader } from '../src/readers/pcsc/pcsc-reader.ts';
import type { LabCard } from './support/pcsc-lab.ts';
import { PcscLab, pcscLabProblem } from './support/pcsc-lab.ts';

// Every case here talks to a real pcscd, through the vpcd reader driver, to a virtual ISO 7816 card (the lab). Where
// the lab cannot run (not root, packages missing), the cases are skipped and the reason is the suite's name.
const problem = await pcscLabProblem();
if (problem) console.warn(problem);

const systemKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const adminImage = (fixedNo: string, issueSeq = 1) =>
  buildAdminCard({ systemKey, fixedNo, customerNo: '10001', issueSeq, oprtNo: 'sysadmin', cardNum: 1, tenantCode: '1001' });

/** The reader code and message of a failed operation. */
async function failure(work: Promise<unknown>): Promise<{ code: number; message: string; zh: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ReaderError) return { code: error.code, message: error.message, zh: error.detail?.['zh-CN'] ?? '' };
    throw error;
  }
  throw new Error('the operation did not fail');
}

describe.skipIf(problem !== null)(`the PC/SC driver against pcscd and a virtual card${problem ? ` (${problem})` : ''}`, () => {
  let lab: PcscLab;
  let pulls: ((phase: Phase, index: number) => Promise<void>) | null = null;
  let reader: PcscReader;

  beforeAll(async () => {
    lab = await PcscLab.start();
    reader = new PcscReader({
      binding: await loadPcscBinding(),
      readerName: lab.readerName,
      fileId: 0x0101,
      beforeUpdate: async (phase, index) => pulls?.(phase, index),
    });
  }, 60_000);
  afterAll(async () => {
    await reader?.close();
    await lab?.close();
  }, 60_000);
  afterEach(() => {
    pulls = null;
  });

  /** Pulls the card off just before the `index`-th UPDATE BINARY of the next write in `phase`. */
  const pullBefore = (when: Phase, at: number) => {
    pulls = async (phase, index) => {
      if (phase === when && index === at) await lab.pull();
    };
  };

  async function onReader(options?: Parameters<PcscLab['newCard']>[0]): Promise<LabCard> {
    const card = lab.newCard(options);
    await lab.place(card);
    return card;
  }

  it('reads a new card as blank, with the serial number of its EF.GDO as fixed number; 990481 without a card', async () => {
    const card = await onReader();
    const read = await reader.read();
    expect(read.fixedNo).toBe(card.serial);
    expect(classifyCard(read.image)).toBe('blank');
    expect(reader.view().find((r) => r.used)).toMatchObject({ name: lab.readerName, card: 'present', known: { fixedNo: card.serial, kind: 'blank' } });
    await lab.remove();
    expect((await failure(reader.read())).code).toBe(readerCodes.noCard);
    expect(reader.view().find((r) => r.used)).toMatchObject({ card: 'empty', known: null });
  });

  it('writes an image whole, keeps it off the reader, and writes each image once', async () => {
    const card = await onReader();
    const image = adminImage(card.serial);
    await reader.write(card.serial, image);
    await lab.remove();
    await lab.place(card);
    const read = await reader.read();
    expect(trimImage(read.image).equals(image)).toBe(true);
    // the next write goes to the other slot, and the card shows it
    const second = adminImage(card.serial, 2);
    await reader.write(card.serial, second);
    expect(trimImage((await reader.read()).image).equals(second)).toBe(true);
    // writing what the card holds already sends no UPDATE BINARY
    const holds = trimImage((await reader.read()).image);
    let updates = 0;
    pulls = async () => {
      updates += 1;
    };
    await reader.write(card.serial, holds);
    expect(updates).toBe(0);
    await reader.write(card.serial, blankImage());
    expect(classifyCard((await reader.read()).image)).toBe('blank');
    expect(updates).toBeGreaterThan(0);
  });

  it('only onto the card asked for: another card is 990208 and is left alone', async () => {
    const first = await onReader();
    await onReader();
    const wrong = await failure(reader.write(first.serial, adminImage(first.serial)));
    expect(wrong.code).toBe(readerCodes.differentCard);
    expect(classifyCard((await reader.read()).image)).toBe('blank');
  });

  it('a card pulled off while its image is written (990321) keeps its old image; placed again, the write goes through', async () => {
    const card = await onReader();
    const before = adminImage(card.serial);
    await reader.write(card.serial, before);
    pullBefore('writing', 1);
    const torn = await failure(reader.write(card.serial, blankImage()));
    expect(torn.code).toBe(readerCodes.writeInterruptedBeforeChange);
    expect(torn.message).toMatch(/left the reader/);
    expect(torn.zh).toMatch(/卡片离开了读卡器/);
    pulls = null;
    await lab.place(card);
    expect(trimImage((await reader.read()).image).equals(before)).toBe(true);
    await reader.write(card.serial, blankImage());
    expect(classifyCard((await reader.read()).image)).toBe('blank');
  });

  it('a card pulled off as the write commits (990322) holds one whole image, old or new; the retry finishes it', async () => {
    const card = await onReader();
    const before = adminImage(card.serial);
    await reader.write(card.serial, before);
    const after = adminImage(card.serial, 2);
    pullBefore('committing', 2);
    const torn = await failure(reader.write(card.serial, after));
    expect(torn.code).toBe(readerCodes.writeInterruptedWhileCommitting);
    pulls = null;
    await lab.place(card);
    const now = trimImage((await reader.read()).image);
    expect(now.equals(before) || now.equals(after)).toBe(true);
    await reader.write(card.serial, after);
    expect(trimImage((await reader.read()).image).equals(after)).toBe(true);
  });

  it('cards it cannot use are final (990204) with the reason, and nothing is written to them', async () => {
    await onReader({ dataSize: 0 });
    const none = await failure(reader.read());
    expect(none.code).toBe(readerCodes.unknownCard);
    expect(none.message).toMatch(/no data file 0101/);
    expect(none.zh).toMatch(/没有数据文件 0101/);

    const short = await onReader({ dataSize: 256 });
    const tooShort = await failure(reader.write(short.serial, adminImage(short.serial)));
    expect(tooShort.code).toBe(readerCodes.unknownCard);
    expect(tooShort.message).toMatch(/file 0101 holds 256 bytes; a card of this system needs 544/);

    await onReader({ structure: 'record' });
    const record = await failure(reader.read());
    expect(record.code).toBe(readerCodes.unknownCard);
    expect(record.message).toMatch(/file 0101 is not a transparent file/);
  });

  it('pcscd stopped in the middle of a write: 990361 naming pcscd, the card keeps its image, and the driver works again once pcscd is back', async () => {
    const card = await onReader();
    const before = adminImage(card.serial);
    await reader.write(card.serial, before);
    pulls = async (phase, index) => {
      if (phase === 'writing' && index === 1) await lab.stopPcscd();
    };
    const stopped = await failure(reader.write(card.serial, blankImage()));
    expect(stopped.code).toBe(readerCodes.readerNotConnected);
    expect(stopped.message).toMatch(/pcscd\) is not running/);
    expect((await failure(reader.read())).code).toBe(readerCodes.readerNotConnected);
    expect(() => reader.view()).toThrow(/pcscd/);
    pulls = null;
    await lab.startPcscd();
    await lab.place(card);
    expect(trimImage((await reader.read()).image).equals(before)).toBe(true);
  });

  it('another program holding the card alone: 990351 (busy, the shell retries), then the read goes through', async () => {
    const card = await onReader();
    const release = await lab.holdCardExclusively();
    expect((await failure(reader.read())).code).toBe(readerCodes.readerBusy);
    release();
    expect((await reader.read()).fixedNo).toBe(card.serial);
  });

  it('a reader that is not plugged in (CARD_READER_NAME) is 990361 naming it', async () => {
    const absent = new PcscReader({ binding: await loadPcscBinding(), readerName: 'Acme Desk Reader', fileId: 0x0101 });
    const missing = await failure(absent.read());
    expect(missing.code).toBe(readerCodes.readerNotConnected);
    expect(missing.message).toMatch(/"Acme Desk Reader" \(CARD_READER_NAME\) is not plugged in/);
    await absent.close();
  });

  describe('the issuer on the PC/SC reader: the calls the shell makes', () => {
    const shellOrigin = 'http://127.0.0.1:6300';
    const token = 'pairing-token-0123456789';
    let app: FastifyInstance;
    let url: string;

    beforeAll(async () => {
      const config = loadIssuerConfig({ CARD_ISSUER_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-pcsc-')), CARD_ISSUER_ALLOWED_ORIGINS: shellOrigin, CARD_READER: 'pcsc', CARD_READER_NAME: lab.readerName });
      app = await buildIssuer({ config, reader, readerName: `PC/SC: ${lab.readerName}` });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      const paired = await post(cardIssuerPaths.addIdentity, { cardDeviceToken: token });
      const { devicePublicKey } = paired.data as { devicePublicKey: string };
      const sysKeyData = sm2.doEncrypt(new Uint8Array(Buffer.concat([systemKey, systemKeyId(systemKey)])), devicePublicKey, 1);
      expect((await post(cardIssuerPaths.init, { sysKeyData })).code).toBe(0);
    });
    afterAll(async () => {
      await app?.close();
    });

    async function post(urlPath: string, body: unknown): Promise<{ code: number; msg: string; data: Record<string, unknown> | null }> {
      const res = await fetch(`${url}${urlPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', language: 'en-US', carddevicetoken: token, origin: shellOrigin },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
    }

    it('checks a blank card, issues an administrator card onto it, reads it back opened, refuses it as blank, clears it', async () => {
      const card = await onReader();
      const check = await post(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 });
      expect(check).toMatchObject({ code: 0, data: { fixedNo: card.serial, canIssue: true } });
      const image = adminImage(card.serial).toString('hex');
      expect((await post(cardIssuerPaths.issueOprtLoginCard, { fixedNo: card.serial, image })).code).toBe(0);
      expect((await post(cardIssuerPaths.readOprtLoginCard, {})).data).toMatchObject({ fixedNo: card.serial, cardClass: 'adminLogin', oprtNo: 'sysadmin', tenantCode: '1001' });
      expect((await post(cardIssuerPaths.checkOprtLoginCardCanIssue, { cardKind: 11 })).code).toBe(readerCodes.cardAlreadyIssued);
      expect((await post(cardIssuerPaths.clearOprtLoginCard, { cardKind: 11, cardFixedNo: card.serial })).code).toBe(0);
      expect((await post(cardIssuerPaths.readBaseInfo, {})).data).toMatchObject({ fixedNo: card.serial, cardClass: 'blank' });
    });

    it('an issue interrupted by pulling the card is 990321 with the reason; the shell’s retry after placing it again issues it', async () => {
      const card = await onReader();
      const image = adminImage(card.serial).toString('hex');
      pullBefore('writing', 0);
      const torn = await post(cardIssuerPaths.issueOprtLoginCard, { fixedNo: card.serial, image });
      expect(torn.code).toBe(readerCodes.writeInterruptedBeforeChange);
      expect(torn.msg).toMatch(/interrupted.*left the reader/);
      pulls = null;
      expect((await post(cardIssuerPaths.issueOprtLoginCard, { fixedNo: card.serial, image })).code).toBe(readerCodes.noCard);
      await lab.place(card);
      expect((await post(cardIssuerPaths.issueOprtLoginCard, { fixedNo: card.serial, image })).code).toBe(0);
      // the answer of that write lost: the same call again finds the image on the card and succeeds
      expect((await post(cardIssuerPaths.issueOprtLoginCard, { fixedNo: card.serial, image })).code).toBe(0);
      expect((await post(cardIssuerPaths.readBaseInfo, {})).data).toMatchObject({ cardClass: 'adminLogin', image });
    });

    it('reads a mother card the vendor wrote with `npm run card -- pcsc-mother`', async () => {
      const card = await onReader();
      const lines: string[] = [];
      const env = { CARD_READER_NAME: lab.readerName };
      await runPcscCardCli(['pcsc-mother', '--customer-no', '10001', '--customer-pwd', 'Customer#2026'], env, (line) => lines.push(line));
      expect(lines).toEqual([`wrote mother card ${card.serial} for customer 10001`]);
      const mother = await post(cardIssuerPaths.readMasterCard, {});
      expect(mother).toMatchObject({ code: 0, data: { fixedNo: card.serial, customerNo: '10001', initialised: false } });
      const read = await reader.read();
      expect(openMotherCard(read.image, sm3Hex('Customer#2026')).card.customerNo).toBe('10001');
      await expect(runPcscCardCli(['pcsc-mother', '--customer-no', '10001', '--customer-pwd', 'x'], env, () => {})).rejects.toThrow(/not blank \(mother\)/);
    });
  });

  it('`npm run card -- pcsc-format` makes the data file on a card without one; pcsc-readers and pcsc-read show the card', async () => {
    const card = await onReader({ dataSize: 0 });
    const env = { CARD_READER_NAME: lab.readerName };
    const lines: string[] = [];
    const out = (line: string) => lines.push(line);
    await runPcscCardCli(['pcsc-format'], env, out);
    await runPcscCardCli(['pcsc-format'], env, out);
    await runPcscCardCli(['pcsc-read'], env, out);
    await runPcscCardCli(['pcsc-readers'], env, out);
    expect(lines.slice(0, 3)).toEqual([`made data file 0101 (${cardFileSize} bytes) on the card`, 'the card has its data file already', `card ${card.serial}: blank`]);
    expect(lines[3]).toMatch(new RegExp(`^\\* ${lab.readerName}: card present, ATR [0-9A-F]+$`));
    // in the PC's language, a reader code with its reason too
    const chinese: string[] = [];
    await runPcscCardCli(['pcsc-read'], env, (line) => chinese.push(line), { language: 'zh-MO' });
    await runPcscCardCli(['pcsc-readers'], env, (line) => chinese.push(line), { language: 'zh-CN' });
    expect(chinese[0]).toBe(`卡片 ${card.serial}：空白卡`);
    expect(chinese[1]).toMatch(new RegExp(`^\\* ${lab.readerName}：有卡，ATR [0-9A-F]+$`));
    let errors = '';
    const missing = await runCardCommand(['pcsc-read'], { language: 'zh-CN', env: { CARD_READER_NAME: 'No such reader' }, out: () => {}, err: (text) => (errors += text) });
    expect(missing).toBe(1);
    expect(errors).toBe(`card: ${new ReaderError(readerCodes.readerNotConnected, pcscProblems.readerMissing('No such reader')).messageIn('zh-CN')}\n`);
    expect(errors).toContain('读卡器 "No such reader"（CARD_READER_NAME）未连接');
    await reader.write(card.serial, makeMotherCard({ customerNo: '7', customerPwdDigest: sm3Hex('p') }));
    expect(classifyCard((await reader.read()).image)).toBe('mother');
  });
});

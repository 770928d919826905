import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readerCodes } from '@campus/contracts';
import { ReaderError } from '../src/readers/card-reader.ts';
import { VirtualReader } from '../src/readers/virtual-reader.ts';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'campus-reader-'));

async function code(work: Promise<unknown>): Promise<number> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ReaderError) return error.code;
    throw error;
  }
  return 0;
}

describe('the virtual reader', () => {
  it('holds at most one card; reads it; 990481 when empty', async () => {
    const reader = new VirtualReader(dir());
    expect(await code(reader.read())).toBe(readerCodes.noCard);
    const a = reader.addCard();
    const b = reader.addCard(Buffer.from('CS-not-really'));
    expect(a).toMatch(/^[0-9A-F]{8}$/);
    reader.place(a);
    expect((await reader.status()).card).toEqual({ fixedNo: a });
    expect(await reader.read()).toMatchObject({ fixedNo: a, image: Buffer.alloc(256) });
    reader.place(b);
    expect((await reader.read()).fixedNo).toBe(b);
    expect(reader.list()).toEqual([
      { fixedNo: [a, b].sort()[0], kind: expect.any(String), onReader: [a, b].sort()[0] === b },
      { fixedNo: [a, b].sort()[1], kind: expect.any(String), onReader: [a, b].sort()[1] === b },
    ]);
    reader.remove();
    expect(await code(reader.read())).toBe(readerCodes.noCard);
    expect(() => reader.place('0BADC0DE')).toThrow(/no card 0BADC0DE/);
  });

  it('writes the whole image, padded to 256 bytes, only onto the card asked for', async () => {
    const reader = new VirtualReader(dir());
    const id = reader.addCard();
    reader.place(id);
    await reader.write(id.toLowerCase(), Buffer.from('new content'));
    const image = (await reader.read()).image;
    expect(image.length).toBe(256);
    expect(image.subarray(0, 11).toString()).toBe('new content');
    const other = reader.addCard();
    expect(await code(reader.write(other, Buffer.from('x')))).toBe(readerCodes.differentCard);
    reader.remove();
    expect(await code(reader.write(id, Buffer.from('x')))).toBe(readerCodes.noCard);
    await expect(reader.write(id, Buffer.alloc(257))).rejects.toThrow(/256 bytes/);
  });

  it.each([readerCodes.writeInterruptedBeforeChange, readerCodes.writeInterruptedWhileCommitting, readerCodes.noCard])(
    'a write interrupted with %i leaves the card byte for byte as it was, and the retry writes it',
    async (fault) => {
      const data = dir();
      const reader = new VirtualReader(data);
      const id = reader.addCard(Buffer.from('old content'));
      reader.place(id);
      const before = (await reader.read()).image;
      reader.failNext('write', fault);
      expect(await code(reader.write(id, Buffer.from('new content')))).toBe(fault);
      if (fault === readerCodes.noCard) reader.place(id); // the card was taken off: put it back
      expect((await reader.read()).image.equals(before)).toBe(true);
      expect(fs.readdirSync(path.join(data, 'virtual-reader', 'cards')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      await reader.write(id, Buffer.from('new content'));
      expect((await reader.read()).image.subarray(0, 11).toString()).toBe('new content');
    },
  );

  it('a read fault is reported as many times as asked, then reads work again', async () => {
    const reader = new VirtualReader(dir());
    const id = reader.addCard();
    reader.place(id);
    reader.failNext('read', readerCodes.noCard, 2);
    expect(await code(reader.read())).toBe(readerCodes.noCard);
    expect(await code(reader.read())).toBe(readerCodes.noCard);
    expect((await reader.read()).fixedNo).toBe(id);
    expect(reader.faults()).toEqual([]);
  });

  it('another process (a second reader on the same folder) sees every change at once; cards survive a restart', async () => {
    const data = dir();
    const issuer = new VirtualReader(data);
    const cli = new VirtualReader(data);
    const id = cli.addCard();
    cli.place(id);
    expect((await issuer.status()).card).toEqual({ fixedNo: id });
    await issuer.write(id, Buffer.from('kept'));
    const restarted = new VirtualReader(data);
    expect((await restarted.read()).image.subarray(0, 4).toString()).toBe('kept');
  });
});

import { describe, expect, it } from 'vitest';
import { classifyCard, makeMotherCard, sm3Hex, trimImage } from '@campus/card-crypto';
import { readerCodes } from '@campus/contracts';
import { ReaderError } from '../src/readers/card-reader.ts';
import type { PcscBinding, PcscCard } from '../src/readers/pcsc/pcsc-binding.ts';
import { cardFileSize } from '../src/readers/pcsc/card-file-layout.ts';
import { PcscReader } from '../src/readers/pcsc/pcsc-reader.ts';

// What real cards answer and the virtual card of the lab cannot: a card that refuses UPDATE BINARY with an Le byte,
// a contactless card without EF.GDO whose reader reports the UID, a read-only file, a card that fails mid-write.
// The card is scripted here; everything above the PC/SC binding is the driver as it runs.

interface ScriptedCard {
  gdo: Buffer | null;
  uid: Buffer | null;
  file: Buffer;
  strictCase3: boolean;
  readOnly: boolean;
  /** The status word the n-th UPDATE BINARY answers instead of writing (1-based). */
  failUpdate?: { at: number; sw: number };
}

function scriptedBinding(card: ScriptedCard): { binding: PcscBinding; updates: string[] } {
  const updates: string[] = [];
  let selected: 'gdo' | 'data' | null = null;
  const sw = (value: number, data: Buffer = Buffer.alloc(0)) => Buffer.concat([data, Buffer.from([value >> 8, value & 0xff])]);
  const connection: PcscCard = {
    async transmit(command) {
      const [, ins, p1 = 0, p2 = 0, lc = 0] = command;
      const offset = (p1 << 8) | p2;
      if (ins === 0xa4) {
        const id = command.readUInt16BE(5);
        selected = id === 0x2f02 && card.gdo ? 'gdo' : id === 0x0101 ? 'data' : null;
        return sw(selected ? 0x9000 : 0x6a82);
      }
      if (ins === 0xca) return card.uid ? sw(0x9000, card.uid) : sw(0x6a81);
      const content = selected === 'gdo' ? card.gdo! : card.file;
      if (ins === 0xb0) {
        const want = lc === 0 ? 256 : lc;
        const part = content.subarray(offset, offset + want);
        return sw(part.length < want ? 0x6282 : 0x9000, part);
      }
      if (ins === 0xd6) {
        if (card.strictCase3 && command.length !== 5 + lc) return sw(0x6700);
        if (card.readOnly) return sw(0x6982);
        updates.push(command.length === 5 + lc ? 'plain' : 'with Le');
        if (card.failUpdate?.at === updates.length) return sw(card.failUpdate.sw);
        command.subarray(5, 5 + lc).copy(card.file, offset);
        return sw(0x9000);
      }
      return sw(0x6d00);
    },
    disconnect() {},
  };
  const binding: PcscBinding = {
    newContext: () => ({
      isValid: true,
      listReaders: () => [{ name: 'Desk Reader 00 00', state: 0x20, atr: Buffer.from('3b8f8001', 'hex'), connect: async () => connection }],
      close() {},
    }),
    shareExclusive: 1,
    anyProtocol: 3,
    leaveCard: 0,
    statePresent: 0x20,
    stateMute: 0x200,
  };
  return { binding, updates };
}

const newCard = (overrides: Partial<ScriptedCard> = {}): ScriptedCard => ({
  gdo: Buffer.from('5a0404a1b2c3', 'hex'),
  uid: null,
  file: Buffer.alloc(cardFileSize),
  strictCase3: false,
  readOnly: false,
  ...overrides,
});
const mother = makeMotherCard({ customerNo: '10001', customerPwdDigest: sm3Hex('Customer#2026') });

async function codeOf(work: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ReaderError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('did not fail');
}

describe('the PC/SC driver and the status words of real cards', () => {
  it('a card that refuses UPDATE BINARY with an Le byte (6700) is written with the plain command from then on', async () => {
    const card = newCard({ strictCase3: true });
    const { binding, updates } = scriptedBinding(card);
    const reader = new PcscReader({ binding, readerName: null, fileId: 0x0101 });
    await reader.write('04A1B2C3', mother);
    expect(trimImage((await reader.read()).image).equals(mother)).toBe(true);
    expect(updates).toEqual(['plain', 'plain', 'plain']);
  });

  it('a contactless card without EF.GDO: its fixed number is the UID the reader reports', async () => {
    const reader = new PcscReader({ binding: scriptedBinding(newCard({ gdo: null, uid: Buffer.from('04112233445566', 'hex') })).binding, readerName: 'Desk', fileId: 0x0101 });
    expect((await reader.read()).fixedNo).toBe('04112233445566');
    const none = await codeOf(new PcscReader({ binding: scriptedBinding(newCard({ gdo: null })).binding, readerName: null, fileId: 0x0101 }).read());
    expect(none).toMatchObject({ code: readerCodes.unknownCard, message: expect.stringMatching(/no serial number/) });
  });

  it('a read-only file is final (990204, status 6982) and the card keeps what it holds', async () => {
    const card = newCard({ readOnly: true });
    const reader = new PcscReader({ binding: scriptedBinding(card).binding, readerName: null, fileId: 0x0101 });
    const refused = await codeOf(reader.write('04A1B2C3', mother));
    expect(refused).toMatchObject({ code: readerCodes.unknownCard, message: expect.stringMatching(/does not let file 0101 be read or written \(status 6982\)/) });
    expect(classifyCard((await reader.read()).image)).toBe('blank');
  });

  it('an unexpected status word in the middle of a write (6581, memory failure) is final and leaves the old image', async () => {
    const card = newCard();
    const { binding } = scriptedBinding(card);
    const reader = new PcscReader({ binding, readerName: null, fileId: 0x0101 });
    await reader.write('04A1B2C3', mother);
    card.failUpdate = { at: 4, sw: 0x6581 }; // the first chunk of the second write
    const failed = await codeOf(reader.write('04A1B2C3', Buffer.alloc(0)));
    expect(failed).toMatchObject({ code: readerCodes.unknownCard, message: expect.stringMatching(/answered status 6581 to UPDATE BINARY/) });
    expect(trimImage((await reader.read()).image).equals(mother)).toBe(true);
  });
});

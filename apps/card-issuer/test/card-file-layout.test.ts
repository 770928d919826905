import { describe, expect, it } from 'vitest';
import { blankImage, classifyCard, makeMotherCard, sm3Hex } from '@campus/card-crypto';
import { readBinary, serialFromGdo, updateBinary } from '../src/readers/pcsc/apdu.ts';
import type { SlotWrite } from '../src/readers/pcsc/card-file-layout.ts';
import { cardFileSize, decodeCardFile, planWrite } from '../src/readers/pcsc/card-file-layout.ts';

const mother = makeMotherCard({ customerNo: '10001', customerPwdDigest: sm3Hex('Customer#2026') });
const other = makeMotherCard({ customerNo: '20002', customerPwdDigest: sm3Hex('Other#2026') });

/** The bytes a write puts on the card, in the order it sends them: the image, then the header. */
function writeOrder(plan: SlotWrite): { offset: number; byte: number }[] {
  return [...plan.image].map((byte, i) => ({ offset: plan.imageOffset + i, byte })).concat([...plan.header].map((byte, i) => ({ offset: plan.headerOffset + i, byte })));
}

function apply(file: Buffer, plan: SlotWrite, upTo = Number.POSITIVE_INFINITY): Buffer {
  const next = Buffer.from(file);
  writeOrder(plan)
    .slice(0, upTo)
    .forEach(({ offset, byte }) => (next[offset] = byte));
  return next;
}

const padded = (image: Buffer) => Buffer.concat([image, Buffer.alloc(256 - image.length)]);

describe('the card file layout of real cards (two slots)', () => {
  it('a new file of zeros is a blank card; the first write goes to slot 1 and leaves the first bytes alone', () => {
    const file = Buffer.alloc(cardFileSize);
    const empty = decodeCardFile(file);
    expect(empty).toMatchObject({ slot: null, sequence: 0 });
    expect(classifyCard(empty.image)).toBe('blank');
    const plan = planWrite(empty, mother);
    expect(plan.slot).toBe(1);
    expect(plan.imageOffset).toBeGreaterThanOrEqual(256);
    const written = decodeCardFile(apply(file, plan));
    expect(written).toMatchObject({ slot: 1, sequence: 1 });
    expect(written.image.equals(padded(mother))).toBe(true);
  });

  it('a write torn after any byte leaves the old image whole until the file holds every byte of the new slot', () => {
    let file: Buffer = Buffer.alloc(cardFileSize);
    for (const [before, after] of [
      [blankImage(), mother],
      [mother, other],
      [other, blankImage()],
    ] as const) {
      const plan = planWrite(decodeCardFile(file), after);
      const complete = apply(file, plan);
      const total = writeOrder(plan).length;
      for (let upTo = 0; upTo < total; upTo += 1) {
        const torn = apply(file, plan, upTo);
        // The last header bytes may already hold their new values (a check byte matches the old one 1 time in
        // 256): the file is then the complete write, and showing the new image is right.
        const expected = torn.equals(complete) ? after : before;
        expect(decodeCardFile(torn).image.equals(padded(expected)), `torn after ${upTo} of ${total} bytes`).toBe(true);
      }
      file = complete;
      expect(decodeCardFile(file).image.equals(padded(after))).toBe(true);
    }
  });

  it('a header whose last byte already held its new value completes the write one byte early, with the whole new image', () => {
    const first = apply(Buffer.alloc(cardFileSize), planWrite(decodeCardFile(Buffer.alloc(cardFileSize)), mother));
    const plan = planWrite(decodeCardFile(first), other);
    const lastHeaderByte = plan.headerOffset + plan.header.length - 1;
    const prepared = Buffer.from(first);
    prepared[lastHeaderByte] = plan.header[plan.header.length - 1]!;
    const total = writeOrder(plan).length;
    expect(decodeCardFile(apply(prepared, plan, total - 2)).image.equals(padded(mother))).toBe(true);
    expect(decodeCardFile(apply(prepared, plan, total - 1)).image.equals(padded(other))).toBe(true);
  });

  it('a slot whose bytes changed on the card does not count (the other, older slot shows)', () => {
    const first = apply(Buffer.alloc(cardFileSize), planWrite(decodeCardFile(Buffer.alloc(cardFileSize)), mother));
    const second = apply(first, planWrite(decodeCardFile(first), other));
    expect(decodeCardFile(second)).toMatchObject({ slot: 0, sequence: 2 });
    const flipped = Buffer.from(second);
    flipped.writeUInt8(flipped.readUInt8(26) ^ 0x01, 26); // a bit of slot 0's image
    expect(decodeCardFile(flipped)).toMatchObject({ slot: 1, sequence: 1 });
    expect(() => decodeCardFile(Buffer.alloc(cardFileSize - 1))).toThrow(RangeError);
  });
});

describe('the commands of the PC/SC driver', () => {
  it('reads the ICC serial number of EF.GDO (tag 5A), and nothing from other content', () => {
    expect(serialFromGdo(Buffer.from('5a0404a1b2c3', 'hex'))).toBe('04A1B2C3');
    expect(serialFromGdo(Buffer.from('4f0201025a08000102030405060700', 'hex'))).toBe('0001020304050607');
    expect(serialFromGdo(Buffer.from('5a0804a1', 'hex'))).toBeNull();
    expect(serialFromGdo(Buffer.alloc(16))).toBeNull();
  });

  it('UPDATE BINARY with and without the Le byte; offsets and lengths are checked', () => {
    expect(updateBinary(0x0110, Buffer.from('dead', 'hex'), true).toString('hex')).toBe('00d6011002dead00');
    expect(updateBinary(0x0110, Buffer.from('dead', 'hex'), false).toString('hex')).toBe('00d6011002dead');
    expect(readBinary(0x0220, 256).toString('hex')).toBe('00b0022000');
    expect(() => readBinary(0x8000, 1)).toThrow(RangeError);
    expect(() => updateBinary(0, Buffer.alloc(256), true)).toThrow(RangeError);
  });
});

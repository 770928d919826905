import { cardImageSize, sm3 } from '@campus/card-crypto';

/**
 * How a card image (docs/cards.md, 256 bytes) is kept in the transparent file of an ISO 7816 card so that a write
 * is all or nothing even when the card leaves the reader half-way (docs/cards.md "Real cards"). A card writes
 * UPDATE BINARY chunk by chunk, so the file holds two copies, "slots", each a 16-byte header and the image:
 *
 *   header: "CJ" ‖ version 01 ‖ 00 ‖ sequence (uint32, big-endian) ‖ check (8) = SM3(label ‖ sequence ‖ image)[0..8)
 *
 * The card's image is that of the valid slot with the higher sequence. A write goes to the other slot: the image
 * first, its header last, so until the header has fully landed that slot is not valid and the card still shows its
 * old image. A file with no valid slot (a new card) shows its first 256 bytes as they are: a card of zeros is blank,
 * and the first write goes to slot 1 so a torn first write leaves those bytes alone.
 */
export const slotHeaderSize = 16;
export const slotSize = slotHeaderSize + cardImageSize;
/** The bytes a card's data file needs: two slots. */
export const cardFileSize = 2 * slotSize;

const magic = Buffer.from('CJ', 'ascii');
const layoutVersion = 1;
const checkLabel = Buffer.from('campus-card-slot-v1', 'ascii');

export interface CardFileContent {
  /** What the card holds, 256 bytes. */
  image: Buffer;
  /** The slot it came from, null for a file without a valid slot. */
  slot: 0 | 1 | null;
  sequence: number;
}

export interface SlotWrite {
  slot: 0 | 1;
  /** Offset in the file of the slot's image, written first. */
  imageOffset: number;
  image: Buffer;
  /** Offset of the slot's header, written last: the commit. */
  headerOffset: number;
  header: Buffer;
}

function sequenceBytes(sequence: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(sequence);
  return bytes;
}

function check(sequence: number, image: Uint8Array): Buffer {
  return sm3(Buffer.concat([checkLabel, sequenceBytes(sequence), image])).subarray(0, 8);
}

function slotAt(file: Buffer, slot: 0 | 1): { sequence: number; image: Buffer } | null {
  const start = slot * slotSize;
  const header = file.subarray(start, start + slotHeaderSize);
  if (!header.subarray(0, 2).equals(magic) || header[2] !== layoutVersion) return null;
  const sequence = header.readUInt32BE(4);
  const image = file.subarray(start + slotHeaderSize, start + slotSize);
  return check(sequence, image).equals(header.subarray(8, 16)) ? { sequence, image: Buffer.from(image) } : null;
}

/** Reads a card's data file (at least cardFileSize bytes). */
export function decodeCardFile(file: Buffer): CardFileContent {
  if (file.length < cardFileSize) throw new RangeError(`a card file holds ${cardFileSize} bytes, not ${file.length}`);
  const first = slotAt(file, 0);
  const second = slotAt(file, 1);
  if (first && (!second || first.sequence > second.sequence)) return { image: first.image, slot: 0, sequence: first.sequence };
  if (second) return { image: second.image, slot: 1, sequence: second.sequence };
  return { image: Buffer.from(file.subarray(0, cardImageSize)), slot: null, sequence: 0 };
}

/** Where and what to write so that the card holds `image` (at most 256 bytes, padded) once the header lands. */
export function planWrite(current: CardFileContent, image: Uint8Array): SlotWrite {
  if (image.length > cardImageSize) throw new RangeError(`a card holds ${cardImageSize} bytes, not ${image.length}`);
  const padded = Buffer.alloc(cardImageSize);
  Buffer.from(image).copy(padded);
  const slot: 0 | 1 = current.slot === 1 ? 0 : 1;
  const sequence = current.sequence + 1;
  const header = Buffer.alloc(slotHeaderSize);
  magic.copy(header, 0);
  header[2] = layoutVersion;
  sequenceBytes(sequence).copy(header, 4);
  check(sequence, padded).copy(header, 8);
  const start = slot * slotSize;
  return { slot, imageOffset: start + slotHeaderSize, image: padded, headerOffset: start, header };
}

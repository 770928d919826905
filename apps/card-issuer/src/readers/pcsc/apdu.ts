/**
 * The ISO 7816-4 commands the PC/SC driver sends, and what their answers mean. Kept to what the virtual card of
 * the tests (vicc) and ordinary cards both accept: SELECT by file identifier without asking for the FCI (P2 0C),
 * short READ BINARY / UPDATE BINARY with offsets below 32768.
 */

/** The answer of a card: data and the status word (SW1 SW2). */
export interface CardAnswer {
  data: Buffer;
  sw: number;
}

export const statusWords = {
  ok: 0x9000,
  /** READ BINARY: end of file before Le bytes; vicc also answers it to a successful UPDATE BINARY. */
  endOfFile: 0x6282,
  wrongLength: 0x6700,
  incompatibleWithFile: 0x6981,
  securityNotSatisfied: 0x6982,
  conditionsNotSatisfied: 0x6985,
  commandNotAllowed: 0x6986,
  fileNotFound: 0x6a82,
  wrongOffset: 0x6b00,
} as const;

/** The largest chunk read or written by one command (short APDUs allow 255 written, 256 read). */
export const chunkSize = 128;

export const masterFileId = 0x3f00;
/** EF.GDO (ISO 7816-4): holds the ICC serial number, tag 5A. */
export const gdoFileId = 0x2f02;

export function swHex(sw: number): string {
  return sw.toString(16).toUpperCase().padStart(4, '0');
}

export function parseAnswer(raw: Buffer): CardAnswer | null {
  if (raw.length < 2) return null;
  return { data: raw.subarray(0, raw.length - 2), sw: raw.readUInt16BE(raw.length - 2) };
}

export function selectFile(fileId: number): Buffer {
  return Buffer.from([0x00, 0xa4, 0x00, 0x0c, 0x02, fileId >> 8, fileId & 0xff]);
}

export function readBinary(offset: number, length: number): Buffer {
  if (offset < 0 || offset > 0x7fff || length < 1 || length > 256) throw new RangeError('READ BINARY: offset 0-32767, length 1-256');
  return Buffer.from([0x00, 0xb0, offset >> 8, offset & 0xff, length & 0xff]);
}

/**
 * UPDATE BINARY. `withLe` appends an Le byte: vicc stops answering without one; a card that refuses the
 * extra byte answers 6700 and the driver sends the plain form from then on.
 */
export function updateBinary(offset: number, data: Uint8Array, withLe: boolean): Buffer {
  if (offset < 0 || offset > 0x7fff || data.length < 1 || data.length > 255) throw new RangeError('UPDATE BINARY: offset 0-32767, 1-255 bytes');
  return Buffer.concat([Buffer.from([0x00, 0xd6, offset >> 8, offset & 0xff, data.length]), data, withLe ? Buffer.from([0x00]) : Buffer.alloc(0)]);
}

/** PC/SC part 3 GET DATA: a contactless reader answers the card's UID. */
export function getUid(): Buffer {
  return Buffer.from([0xff, 0xca, 0x00, 0x00, 0x00]);
}

/** CREATE FILE of a transparent EF (FCP: size, descriptor 01, identifier), used to format a card. */
export function createTransparentFile(fileId: number, size: number): Buffer {
  if (size < 1 || size > 0x7fff) throw new RangeError('a transparent file holds 1 to 32767 bytes');
  const fcp = Buffer.from([0x80, 0x02, size >> 8, size & 0xff, 0x82, 0x01, 0x01, 0x83, 0x02, fileId >> 8, fileId & 0xff]);
  return Buffer.concat([Buffer.from([0x00, 0xe0, 0x00, 0x00, fcp.length + 2, 0x62, fcp.length]), fcp]);
}

/** The ICC serial number in EF.GDO's content (BER-TLV, tag 5A), upper-case hex; null when there is none. */
export function serialFromGdo(content: Buffer): string | null {
  let at = 0;
  while (at + 2 <= content.length) {
    const tag = content.readUInt8(at);
    if (tag === 0x00 || tag === 0xff) break;
    const length = content.readUInt8(at + 1);
    if (length > 0x7f || at + 2 + length > content.length) return null;
    if (tag === 0x5a) return length > 0 ? content.subarray(at + 2, at + 2 + length).toString('hex').toUpperCase() : null;
    at += 2 + length;
  }
  return null;
}

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { cardKeys, customerKey, customerKeyCheck, normaliseFixedNo, systemKeyId } from './keys.ts';
import type { CustomerKeyDerivation } from './keys.ts';
import { hmacSm3, sm4CbcDecrypt, sm4CbcEncrypt, sm4DecryptBlock, sm4EncryptBlock } from './sm.ts';

/**
 * The bytes on a card (docs/cards.md "Layout v1"). Every card starts with a 24-byte header in clear; the
 * server builds and checks every image (it holds the system key), the card issuer only reads and writes them.
 */

export const cardImageSize = 256;
export const adminCardKind = 11;
const magic = [0x43, 0x53]; // "CS"
const version = 1;
const headerSize = 24;
const macSize = 32;
const ivSize = 16;
/** Bit 0 of the header's flags: K_cust of this mother or system key card is argon2id (clear: PBKDF2-HMAC-SM3). */
const argon2idFlag = 0x01;

export const cardTypes = { mother: 1, systemKey: 2, adminLogin: 3 } as const;
export type CardType = 'mother' | 'systemKey' | 'adminLogin';
export type CardClass = CardType | 'blank' | 'unknown';

export type CardTrustReason = 'tampered' | 'otherInstallation' | 'wrongType' | 'unknown' | 'passwordWrong' | 'alreadyInitialised' | 'notInitialised';

/** A card that is not what it must be: the reason says which check failed. */
export class CardTrustError extends Error {
  constructor(readonly reason: CardTrustReason, message: string = reason) {
    super(message);
    this.name = 'CardTrustError';
  }
}

export interface CardHeader {
  type: CardType;
  kind: number;
  customerNo: string;
  /** Key id of the installation (zeros on a mother card not yet initialised). */
  kid: Buffer;
  /** The server's issue number of this card: a re-issue counts up, so an older copy is refused. */
  issueSeq: number;
  bodyLength: number;
  /** How the K_cust of a mother or system key card is derived (the flags byte). */
  customerKeyDerivation: CustomerKeyDerivation;
}

const typeNames: Record<number, CardType> = { 1: 'mother', 2: 'systemKey', 3: 'adminLogin' };

/** A card that holds nothing: 256 zero bytes. */
export function blankImage(): Buffer {
  return Buffer.alloc(cardImageSize);
}

function customerNumber(customerNo: string): number {
  if (!/^[1-9][0-9]{0,7}$/.test(customerNo)) throw new RangeError(`a customer number is 1 to 8 digits without a leading zero, got "${customerNo}"`);
  return Number(customerNo);
}

function header(type: CardType, customerNo: string, kid: Uint8Array, issueSeq: number, bodyLength: number, derivation: CustomerKeyDerivation = 'pbkdf2-sm3'): Buffer {
  const h = Buffer.alloc(headerSize);
  h[0] = magic[0] ?? 0;
  h[1] = magic[1] ?? 0;
  h[2] = version;
  h[3] = cardTypes[type];
  h[4] = type === 'mother' ? 0 : adminCardKind;
  h[5] = derivation === 'argon2id' ? argon2idFlag : 0;
  h.writeUInt32BE(customerNumber(customerNo), 6);
  Buffer.from(kid).copy(h, 10, 0, 8);
  h.writeUInt32BE(issueSeq, 18);
  h.writeUInt16BE(bodyLength, 22);
  return h;
}

/** The length of the image that matters (header, body, its IV and MAC); the rest of the card is padding. */
function usedLength(h: CardHeader): number {
  if (h.type === 'adminLogin') return headerSize + ivSize + h.bodyLength + macSize;
  if (h.type === 'systemKey') return headerSize + h.bodyLength + macSize;
  return headerSize + h.bodyLength + (h.kid.every((b) => b === 0) ? 0 : macSize);
}

/** The header of one of our cards, or null when the image is not one (blank, foreign, cut short). */
export function readHeader(image: Uint8Array): CardHeader | null {
  const bytes = Buffer.from(image);
  if (bytes.length < headerSize || bytes[0] !== magic[0] || bytes[1] !== magic[1] || bytes[2] !== version) return null;
  const type = typeNames[bytes[3] ?? 0];
  if (!type) return null;
  const h: CardHeader = {
    type,
    kind: bytes[4] ?? 0,
    customerNo: String(bytes.readUInt32BE(6)),
    kid: bytes.subarray(10, 18),
    issueSeq: bytes.readUInt32BE(18),
    bodyLength: bytes.readUInt16BE(22),
    customerKeyDerivation: ((bytes[5] ?? 0) & argon2idFlag) !== 0 ? 'argon2id' : 'pbkdf2-sm3',
  };
  return usedLength(h) <= bytes.length ? h : null;
}

/** The bytes that make the image (header, body, MAC) without the card's padding; all of it for a card not ours. */
export function trimImage(image: Uint8Array): Buffer {
  const bytes = Buffer.from(image);
  const h = readHeader(bytes);
  return h ? bytes.subarray(0, usedLength(h)) : bytes;
}

/** What a card holds, from its header alone: our three kinds, blank (all 0x00 or all 0xFF), or unknown. */
export function classifyCard(image: Uint8Array): CardClass {
  const h = readHeader(image);
  if (h) return h.type;
  const bytes = Buffer.from(image);
  if (bytes.length > 0 && (bytes.every((b) => b === 0) || bytes.every((b) => b === 0xff))) return 'blank';
  return 'unknown';
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function expectType(image: Uint8Array, type: CardType): { h: CardHeader; bytes: Buffer } {
  const h = readHeader(image);
  if (!h) throw new CardTrustError(classifyCard(image) === 'blank' ? 'wrongType' : 'unknown', 'not a card of this product');
  if (h.type !== type) throw new CardTrustError('wrongType', `a ${h.type} card, not a ${type} card`);
  return { h, bytes: Buffer.from(image).subarray(0, usedLength(h)) };
}

/** Checks the installation (kid) and the MAC over everything before it. */
function checkMac(bytes: Buffer, h: CardHeader, systemKey: Uint8Array, fixedNo: string): void {
  if (!same(h.kid, systemKeyId(systemKey))) throw new CardTrustError('otherInstallation', 'a card of another installation');
  const signed = bytes.subarray(0, bytes.length - macSize);
  const mac = bytes.subarray(bytes.length - macSize);
  if (!same(mac, hmacSm3(cardKeys(systemKey, fixedNo).mac, signed))) throw new CardTrustError('tampered', 'the card was changed or copied');
}

function withMac(unsigned: Buffer, systemKey: Uint8Array, fixedNo: string): Buffer {
  return Buffer.concat([unsigned, hmacSm3(cardKeys(systemKey, fixedNo).mac, unsigned)]);
}

// ---- length-prefixed fields ----

function field(text: string, encoding: 'utf8' | 'ascii', max: number, name: string): Buffer {
  const bytes = Buffer.from(text, encoding);
  if (bytes.length === 0 || bytes.length > max) throw new RangeError(`${name} must be 1 to ${max} bytes, got ${bytes.length}`);
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

class Reader {
  private at = 0;
  constructor(private readonly bytes: Buffer) {}
  take(n: number): Buffer {
    if (this.at + n > this.bytes.length) throw new CardTrustError('tampered', 'the card body is cut short');
    const part = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return part;
  }
  text(encoding: 'utf8' | 'ascii'): string {
    return this.take(this.take(1)[0] ?? 0).toString(encoding);
  }
  u32(): number {
    return this.take(4).readUInt32BE(0);
  }
}

// ---- administrator login cards ----

export interface AdminCardFields {
  /** The operator number (login name) of the administrator the card signs in. */
  oprtNo: string;
  cardNum: number;
  tenantCode: string;
}

export interface AdminCardInput extends AdminCardFields {
  systemKey: Uint8Array;
  fixedNo: string;
  customerNo: string;
  issueSeq: number;
  /** Tests fix it; otherwise random. */
  iv?: Uint8Array;
}

/** An administrator login card: the operator, card number and tenant, encrypted and MACed for one card. */
export function buildAdminCard(input: AdminCardInput): Buffer {
  const fixedNo = normaliseFixedNo(input.fixedNo);
  const cardNum = Buffer.alloc(4);
  cardNum.writeUInt32BE(input.cardNum, 0);
  const plain = Buffer.concat([field(input.oprtNo, 'utf8', 32, 'oprtNo'), cardNum, field(input.tenantCode, 'ascii', 16, 'tenantCode')]);
  const iv = Buffer.from(input.iv ?? randomBytes(ivSize));
  const body = sm4CbcEncrypt(cardKeys(input.systemKey, fixedNo).enc, iv, plain);
  const h = header('adminLogin', input.customerNo, systemKeyId(input.systemKey), input.issueSeq, body.length);
  return withMac(Buffer.concat([h, iv, body]), input.systemKey, fixedNo);
}

/** Opens an administrator login card of this installation; CardTrustError for anything else. */
export function openAdminCard(image: Uint8Array, systemKey: Uint8Array, fixedNo: string): AdminCardFields & { header: CardHeader } {
  const { h, bytes } = expectType(image, 'adminLogin');
  checkMac(bytes, h, systemKey, normaliseFixedNo(fixedNo));
  const iv = bytes.subarray(headerSize, headerSize + ivSize);
  let plain: Buffer;
  try {
    plain = sm4CbcDecrypt(cardKeys(systemKey, fixedNo).enc, iv, bytes.subarray(headerSize + ivSize, headerSize + ivSize + h.bodyLength));
  } catch {
    throw new CardTrustError('tampered', 'the card body does not open');
  }
  const r = new Reader(plain);
  return { oprtNo: r.text('utf8'), cardNum: r.u32(), tenantCode: r.text('ascii'), header: h };
}

// ---- system key cards ----

export interface SystemKeyCardInput {
  systemKey: Uint8Array;
  fixedNo: string;
  customerNo: string;
  issueSeq: number;
  /** The system key sealed under K_cust, and the salt and fixed number of the mother card it came from. */
  recovery: MotherRecovery;
}

/** What recovering the system key needs besides the customer password (stored by the server at initialisation). */
export interface MotherRecovery {
  sealedSystemKey: Buffer;
  cardSalt: Buffer;
  motherFixedNo: string;
  /** The K_cust that sealed the key. */
  derivation: CustomerKeyDerivation;
}

/**
 * A system key card: the system key sealed under the customer's key (so the card alone is not the key) and
 * the mother card's salt, in clear, MACed under the system key for this card.
 */
export function buildSystemKeyCard(input: SystemKeyCardInput): Buffer {
  const fixedNo = normaliseFixedNo(input.fixedNo);
  const body = Buffer.concat([input.recovery.sealedSystemKey, input.recovery.cardSalt, field(normaliseFixedNo(input.recovery.motherFixedNo), 'ascii', 20, 'motherFixedNo')]);
  const h = header('systemKey', input.customerNo, systemKeyId(input.systemKey), input.issueSeq, body.length, input.recovery.derivation);
  return withMac(Buffer.concat([h, body]), input.systemKey, fixedNo);
}

function keyCardBody(bytes: Buffer, h: CardHeader): MotherRecovery {
  const r = new Reader(bytes.subarray(headerSize, headerSize + h.bodyLength));
  return { sealedSystemKey: r.take(16), cardSalt: r.take(16), motherFixedNo: r.text('ascii'), derivation: h.customerKeyDerivation };
}

/** Checks a system key card of this installation (issue, recycle, "is it a key card"). */
export function openSystemKeyCard(image: Uint8Array, systemKey: Uint8Array, fixedNo: string): MotherRecovery & { header: CardHeader } {
  const { h, bytes } = expectType(image, 'systemKey');
  checkMac(bytes, h, systemKey, normaliseFixedNo(fixedNo));
  return { ...keyCardBody(bytes, h), header: h };
}

/**
 * Recovers the system key from a system key card and the customer password (when the server lost it):
 * passwordWrong when the password does not open it, tampered when the card was changed or copied.
 */
export function recoverSystemKey(image: Uint8Array, fixedNo: string, customerPwdDigest: string): Buffer {
  const { h, bytes } = expectType(image, 'systemKey');
  const body = keyCardBody(bytes, h);
  const systemKey = sm4DecryptBlock(customerKey(h.customerNo, customerPwdDigest, body.cardSalt, body.derivation), body.sealedSystemKey);
  if (!same(h.kid, systemKeyId(systemKey))) throw new CardTrustError('passwordWrong', 'the customer password does not open this card');
  checkMac(bytes, h, systemKey, normaliseFixedNo(fixedNo));
  return systemKey;
}

// ---- mother cards ----

export interface MotherCardInput {
  customerNo: string;
  customerPwdDigest: string;
  /** 16 bytes naming this mother card; random when not given. */
  sysKeyCode?: Uint8Array;
  cardSalt?: Uint8Array;
  /** argon2id unless told (the old derivation only to make the cards of before, in tests). */
  derivation?: CustomerKeyDerivation;
}

export interface MotherCard {
  customerNo: string;
  /** 32 hex digits. */
  sysKeyCode: string;
  cardSalt: Buffer;
  pwdCheck: Buffer;
  initialised: boolean;
  kid: Buffer;
  /** The system key sealed under K_cust, once initialised. */
  sealedSystemKey: Buffer | null;
  /** The MAC of the initialised card under the system key (hex): what proves it to the server; '' before. */
  proof: string;
  /** How its K_cust is derived (pwdCheck and the sealed key). */
  derivation: CustomerKeyDerivation;
}

/** A vendor's new mother card for a customer: nothing of the installation on it yet. */
export function makeMotherCard(input: MotherCardInput): Buffer {
  const cardSalt = Buffer.from(input.cardSalt ?? randomBytes(16));
  const sysKeyCode = Buffer.from(input.sysKeyCode ?? randomBytes(16));
  if (cardSalt.length !== 16 || sysKeyCode.length !== 16) throw new RangeError('the card salt and the system key code are 16 bytes each');
  const derivation = input.derivation ?? 'argon2id';
  const pwdCheck = customerKeyCheck(customerKey(input.customerNo, input.customerPwdDigest, cardSalt, derivation));
  const body = Buffer.concat([cardSalt, pwdCheck, sysKeyCode]);
  return Buffer.concat([header('mother', input.customerNo, Buffer.alloc(8), 0, body.length, derivation), body]);
}

export function readMotherCard(image: Uint8Array): MotherCard {
  const { h, bytes } = expectType(image, 'mother');
  const body = bytes.subarray(headerSize, headerSize + h.bodyLength);
  const initialised = !h.kid.every((b) => b === 0);
  if (body.length !== (initialised ? 64 : 48)) throw new CardTrustError('tampered', 'the mother card body has the wrong length');
  return {
    customerNo: h.customerNo,
    cardSalt: body.subarray(0, 16),
    pwdCheck: body.subarray(16, 32),
    sysKeyCode: body.subarray(32, 48).toString('hex'),
    initialised,
    kid: h.kid,
    sealedSystemKey: initialised ? body.subarray(48, 64) : null,
    proof: initialised ? bytes.subarray(bytes.length - macSize).toString('hex') : '',
    derivation: h.customerKeyDerivation,
  };
}

/** K_cust of this mother card when the customer password is right; passwordWrong otherwise. */
export function openMotherCard(image: Uint8Array, customerPwdDigest: string): { card: MotherCard; customerKey: Buffer } {
  const card = readMotherCard(image);
  const key = customerKey(card.customerNo, customerPwdDigest, card.cardSalt, card.derivation);
  if (!same(customerKeyCheck(key), card.pwdCheck)) throw new CardTrustError('passwordWrong', 'the customer password is wrong');
  return { card, customerKey: key };
}

/**
 * System initialisation: the new system key sealed under K_cust on the mother card, and the card MACed
 * under the system key (its proof). Answers the new image and what the server keeps for recovery. A vendor's card
 * made with the old derivation is resealed on this write: its pwdCheck and the sealed key are argon2id's.
 */
export function initialiseMotherCard(image: Uint8Array, fixedNo: string, customerPwdDigest: string, systemKey: Uint8Array): { image: Buffer; recovery: MotherRecovery } {
  const { card, customerKey: opened } = openMotherCard(image, customerPwdDigest);
  if (card.initialised) throw new CardTrustError('alreadyInitialised', 'this mother card already holds a system key');
  const key = card.derivation === 'argon2id' ? opened : customerKey(card.customerNo, customerPwdDigest, card.cardSalt, 'argon2id');
  const sealed = sm4EncryptBlock(key, systemKey);
  const body = Buffer.concat([card.cardSalt, customerKeyCheck(key), Buffer.from(card.sysKeyCode, 'hex'), sealed]);
  const unsigned = Buffer.concat([header('mother', card.customerNo, systemKeyId(systemKey), 0, body.length, 'argon2id'), body]);
  const id = normaliseFixedNo(fixedNo);
  return { image: withMac(unsigned, systemKey, id), recovery: { sealedSystemKey: sealed, cardSalt: Buffer.from(card.cardSalt), motherFixedNo: id, derivation: 'argon2id' } };
}

/** The server's check of a swiped mother card (MasterCardVerify): initialised by this installation, unchanged. */
export function verifyMotherCard(image: Uint8Array, fixedNo: string, systemKey: Uint8Array): MotherCard {
  const { h, bytes } = expectType(image, 'mother');
  const card = readMotherCard(image);
  if (!card.initialised) throw new CardTrustError('notInitialised', 'this mother card has not initialised a system yet');
  checkMac(bytes, h, systemKey, normaliseFixedNo(fixedNo));
  return card;
}

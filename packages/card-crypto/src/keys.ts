import { hmacSm3, pbkdf2Sm3, sm3 } from './sm.ts';

/** Key derivation of docs/cards.md ("Keys"). Labels are ASCII; a fixed number is its upper-case hex text. */

export interface CardKeys {
  /** SM4-128 key of the card's encrypted body. */
  enc: Buffer;
  /** HMAC-SM3 key of the card's MAC (32 bytes). */
  mac: Buffer;
}

const fixedNoPattern = /^[0-9A-F]{8,20}$/;

/** A card's fixed number (UID) as the cards carry it: 8 to 20 upper-case hex digits. */
export function normaliseFixedNo(fixedNo: string): string {
  const upper = fixedNo.trim().toUpperCase();
  if (!fixedNoPattern.test(upper)) throw new RangeError(`a card's fixed number is 8 to 20 hex digits, got "${fixedNo}"`);
  return upper;
}

/** The per-card keys: a card's image moved to another card (another fixed number) no longer opens. */
export function cardKeys(systemKey: Uint8Array, fixedNo: string): CardKeys {
  const id = normaliseFixedNo(fixedNo);
  return {
    enc: hmacSm3(systemKey, 'campus-card-enc-v1', id).subarray(0, 16),
    mac: hmacSm3(systemKey, 'campus-card-mac-v1', id),
  };
}

/** The installation's key id (8 bytes), in clear on its cards: "another installation" is told before any MAC. */
export function systemKeyId(systemKey: Uint8Array): Buffer {
  return sm3(Buffer.concat([Buffer.from('campus-system-key-id-v1', 'ascii'), systemKey])).subarray(0, 8);
}

export const customerKeyIterations = 20_000;

/**
 * K_cust, the key of the customer's secrets on the mother card and the system key card: PBKDF2-HMAC-SM3 of
 * the customer password's SM3 hex digest (the browser never sends the password itself), salted with the
 * customer number and the mother card's own random salt.
 */
export function customerKey(customerNo: string, customerPwdDigest: string, cardSalt: Uint8Array): Buffer {
  const salt = Buffer.concat([Buffer.from(`campus-mother-v1${customerNo}`, 'ascii'), cardSalt]);
  return pbkdf2Sm3(customerPwdDigest, salt, customerKeyIterations, 16);
}

/** The check value of K_cust on the mother card: a wrong customer password is told without opening anything. */
export function customerKeyCheck(customerKey: Uint8Array): Buffer {
  return hmacSm3(customerKey, 'campus-mother-check-v1').subarray(0, 16);
}

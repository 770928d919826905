import { createRequire } from 'node:module';
import { argon2id } from '@noble/hashes/argon2.js';
import type { Algorithm, hashRawSync } from '@node-rs/argon2';
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

/**
 * How K_cust is derived; the header's flags byte of a mother card and a system key card says which (docs/cards.md
 * "Layout v1"). 'pbkdf2-sm3' is the first derivation, still read on cards sealed with it; every new seal is 'argon2id'.
 */
export type CustomerKeyDerivation = 'pbkdf2-sm3' | 'argon2id';

export const customerKeyIterations = 20_000;

/**
 * The cost of the argon2id derivation (RFC 9106's second recommended set with one lane): 64 MiB of memory and three
 * passes a guess, so that a copy of a card cannot be guessed offline at the pace of a hash (docs/cards.md "Keys").
 */
export const customerKeyArgon2id = { memoryKiB: 65_536, passes: 3, lanes: 1 } as const;

type RawArgon2id = (password: string, salt: Buffer) => Buffer;

/**
 * The native argon2id where it is installed (the server), else the same function in JavaScript: the card issuer's
 * downloads carry no native addon for it, and it needs K_cust only to make the vendor's mother cards (the demo's and
 * `npm run card`). Both give the same bytes (argon2id is one standard function).
 */
function loadArgon2id(): RawArgon2id {
  const { memoryKiB, passes, lanes } = customerKeyArgon2id;
  try {
    // loaded at run time, not imported: a bundle (the issuer's downloads) would otherwise need the native addon
    const native = createRequire(import.meta.url)('@node-rs/argon2') as { hashRawSync: typeof hashRawSync };
    // 2 is Algorithm.Argon2id (a const enum)
    const algorithm = 2 as Algorithm;
    return (password, salt) => native.hashRawSync(password, { algorithm, memoryCost: memoryKiB, timeCost: passes, parallelism: lanes, outputLen: 16, salt });
  } catch {
    return (password, salt) => Buffer.from(argon2id(password, salt, { m: memoryKiB, t: passes, p: lanes, dkLen: 16 }));
  }
}

let argon2idRaw: RawArgon2id | null = null;

/**
 * K_cust, the key of the customer's secrets on the mother card and the system key card, from the customer password's
 * SM3 hex digest (the browser never sends the password itself), salted with the customer number and the mother card's
 * own random salt.
 */
export function customerKey(customerNo: string, customerPwdDigest: string, cardSalt: Uint8Array, derivation: CustomerKeyDerivation): Buffer {
  if (derivation === 'pbkdf2-sm3') {
    const salt = Buffer.concat([Buffer.from(`campus-mother-v1${customerNo}`, 'ascii'), cardSalt]);
    return pbkdf2Sm3(customerPwdDigest, salt, customerKeyIterations, 16);
  }
  argon2idRaw ??= loadArgon2id();
  return argon2idRaw(customerPwdDigest, Buffer.concat([Buffer.from(`campus-mother-v2${customerNo}`, 'ascii'), cardSalt]));
}

/** The check value of K_cust on the mother card: a wrong customer password is told without opening anything. */
export function customerKeyCheck(customerKey: Uint8Array): Buffer {
  return hmacSm3(customerKey, 'campus-mother-check-v1').subarray(0, 16);
}

import { hash, verify } from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';
import { passwordLength } from '@campus/contracts';
import type { DigestMode } from '@campus/contracts';
import { digestHex } from '../../lib/hash.ts';

/** argon2id, m=19456 KiB, t=2, p=1 (DESIGN §5). 2 is Algorithm.Argon2id (a const enum). */
const argonOptions = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** What the browser sends: lowercase hex SHA-256 (SM3 in national-crypto mode) of the UTF-8 password. */
export function passwordDigest(password: string, mode: DigestMode): string {
  return digestHex(mode, password);
}

export function hashDigest(digest: string): Promise<string> {
  return hash(digest, argonOptions);
}

export async function verifyDigest(stored: string, digest: string): Promise<boolean> {
  try {
    return await verify(stored, digest);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check, for unknown accounts (no timing difference). */
export async function verifyAgainstDummy(digest: string): Promise<false> {
  dummyHash ??= hashDigest('0'.repeat(64));
  await verifyDigest(await dummyHash, digest);
  return false;
}

/**
 * 8–20 characters (passwordLength of the contracts), at least one digit and one letter, special characters
 * allowed, no whitespace at the start or the end (spec §5). The browser gets the same source (base64).
 */
export const passwordPolicySource = `^(?=.*\\d)(?=.*[A-Za-z])(?!\\s)(?!.*\\s$).{${passwordLength.min},${passwordLength.max}}$`;

export function meetsPasswordPolicy(password: string): boolean {
  return new RegExp(passwordPolicySource).test(password);
}

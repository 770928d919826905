import { hash, randomBytes } from 'node:crypto';

/** One call, no Hash object: every signed-in call hashes its token. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function newId(): string {
  return randomBytes(12).toString('base64url');
}

import { hash, randomBytes } from 'node:crypto';
import type { BinaryLike } from 'node:crypto';

/**
 * The server's one place of SHA-256 (and of the password digest's SM3): stored tokens, file and image hashes, the
 * content-security policy's script hash. One call, no Hash object: every signed-in call hashes its token.
 */
export function sha256Hex(value: BinaryLike): string {
  return hash('sha256', value, 'hex');
}

/** SHA-256 as base64, the form of a content-security policy's `'sha256-…'` source. */
export function sha256Base64(value: string): string {
  return hash('sha256', value, 'base64');
}

/** Lower-case hex digest of `value` (a string as UTF-8) with `algorithm`: SHA-256, or SM3 on gate deployments. */
export function digestHex(algorithm: 'sha256' | 'sm3', value: string): string {
  return hash(algorithm, value, 'hex');
}

export function newId(): string {
  return randomBytes(12).toString('base64url');
}

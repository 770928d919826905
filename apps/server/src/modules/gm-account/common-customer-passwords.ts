import { sm3Hex } from '@campus/card-crypto';
import { commonCustomerPasswordTexts } from '@campus/contracts';

let digests: Set<string> | null = null;

/**
 * Whether a customer password's SM3 digest is one of the common passwords' (customer-password-rules.ts). The browser
 * sends only the digest, so the server cannot check the password's length: the shell does, before it hashes.
 */
export function isCommonCustomerPasswordDigest(digest: string): boolean {
  digests ??= new Set(commonCustomerPasswordTexts().map((text) => sm3Hex(text)));
  return digests.has(digest.toLowerCase());
}

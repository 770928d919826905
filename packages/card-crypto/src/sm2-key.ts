import { sm2 } from 'sm-crypto-v2';

const uncompressedKey = /^04[0-9a-fA-F]{128}$/;

/**
 * Whether `hex` is an uncompressed SM2 public key: `04` then 128 hex digits (X ‖ Y) naming a point of the SM2
 * curve. False for anything else (wrong length, not hex, a compressed key, a point off the curve); it never
 * throws, where sm-crypto-v2's verifyPublicKey throws for a point off the curve. Hex digits may be of either
 * case (the same point); the callers that keep or compare keys lower-case them themselves.
 */
export function isSm2PublicKey(hex: string): boolean {
  if (!uncompressedKey.test(hex)) return false;
  try {
    return sm2.verifyPublicKey(hex);
  } catch {
    return false;
  }
}

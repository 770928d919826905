import { sm2 } from 'sm-crypto-v2';
import { describe, expect, it } from 'vitest';
import { isSm2PublicKey } from '../src/sm2-key.ts';

const { publicKey } = sm2.generateKeyPairHex();

/** The key with its last hex digit changed: still 04 and 128 hex digits, but (almost surely) off the curve. */
const lastDigitChanged = (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');

describe('isSm2PublicKey', () => {
  it('is true for a generated public key, in either case', () => {
    expect(publicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(isSm2PublicKey(publicKey)).toBe(true);
    expect(isSm2PublicKey(publicKey.toUpperCase())).toBe(true);
  });

  it('is false, and does not throw, for a well-formed point off the curve', () => {
    const offCurve = lastDigitChanged(publicKey);
    expect(() => sm2.verifyPublicKey(offCurve)).toThrow(); // what the helper is for
    expect(isSm2PublicKey(offCurve)).toBe(false);
    expect(isSm2PublicKey(`04${'0'.repeat(128)}`)).toBe(false);
  });

  it('is false for a wrong length, a wrong prefix, a compressed key, non-hex text and the empty string', () => {
    for (const bad of [
      publicKey.slice(0, -2),
      `${publicKey}00`,
      `05${publicKey.slice(2)}`,
      `02${publicKey.slice(2, 66)}`,
      `04${'g'.repeat(128)}`,
      ` ${publicKey}`,
      '04',
      '',
    ]) {
      expect(() => isSm2PublicKey(bad)).not.toThrow();
      expect(isSm2PublicKey(bad), bad).toBe(false);
    }
  });
});

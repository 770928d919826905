import { createHash } from 'node:crypto';
import { sm2 } from 'sm-crypto-v2';
import { describe, expect, it } from 'vitest';
import { issuerDeviceId, signIssuerChallenge, verifyIssuerChallenge } from '../src/index.ts';

describe('the card issuer’s signed key challenge (issue 46 item 1)', () => {
  const keys = sm2.generateKeyPairHex();
  const signature = signIssuerChallenge(keys.privateKey, keys.publicKey, 'challenge-1', 'FRONT-DESK-1');

  it('verifies for its key, challenge and PC name only', () => {
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'FRONT-DESK-1', signature)).toBe(true);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'FRONT-DESK-1', signature.toUpperCase())).toBe(true);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-2', 'FRONT-DESK-1', signature)).toBe(false);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'OTHER-PC', signature)).toBe(false);
    expect(verifyIssuerChallenge(sm2.generateKeyPairHex().publicKey, 'challenge-1', 'FRONT-DESK-1', signature)).toBe(false);
  });

  it('answers false, never throws, for a key off the curve or a signature that is no pair of numbers', () => {
    expect(verifyIssuerChallenge(`04${'0'.repeat(128)}`, 'challenge-1', 'FRONT-DESK-1', signature)).toBe(false);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'FRONT-DESK-1', '0'.repeat(128))).toBe(false);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'FRONT-DESK-1', 'f'.repeat(128))).toBe(false);
    expect(verifyIssuerChallenge(keys.publicKey, 'challenge-1', 'FRONT-DESK-1', 'xyz')).toBe(false);
  });

  it('names the device as the issuer always did: SM3 of its public key, 8 bytes, upper-case hex', () => {
    expect(issuerDeviceId(keys.publicKey)).toBe(createHash('sm3').update(Buffer.from(keys.publicKey, 'hex')).digest('hex').slice(0, 16).toUpperCase());
  });
});

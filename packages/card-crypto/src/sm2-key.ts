import { sm2 } from 'sm-crypto-v2';
import { sm3 } from './sm.ts';

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

/**
 * What a card issuer signs to have the system key sealed to it (issue 46 item 1): the server's one-time challenge
 * and the PC's name, so a signature proves the private key and names the PC it was made on. The prefix keeps a
 * signature of this from being one of anything else the issuer's key might sign.
 */
export function issuerChallengeMessage(challenge: string, hostName: string): string {
  return `campus-issuer-key-challenge\n${challenge}\n${hostName}`;
}

/** The issuer's SM2 signature (SM3 with the default user id, r ‖ s hex) of issuerChallengeMessage. */
export function signIssuerChallenge(privateKey: string, publicKey: string, challenge: string, hostName: string): string {
  return sm2.doSignature(issuerChallengeMessage(challenge, hostName), privateKey, { hash: true, publicKey });
}

/** Whether `signature` is the issuer of `publicKey` signing this challenge and name; never throws. */
export function verifyIssuerChallenge(publicKey: string, challenge: string, hostName: string, signature: string): boolean {
  if (!isSm2PublicKey(publicKey) || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  try {
    return sm2.doVerifySignature(issuerChallengeMessage(challenge, hostName), signature.toLowerCase(), publicKey, { hash: true });
  } catch {
    return false;
  }
}

/** A card issuer's device id: the first 8 bytes of SM3 of its public key, upper-case hex (the issuer and the server's registry). */
export function issuerDeviceId(publicKey: string): string {
  return sm3(Buffer.from(publicKey, 'hex')).subarray(0, 8).toString('hex').toUpperCase();
}

import { sm2 } from 'sm-crypto-v2';
import type { SealKeyRepository } from './seal-key-repository.ts';

/** Row name of the SM2 pair new passwords are sealed to. */
export const passwordSealKeyName = 'password-seal-sm2';

/** sm-crypto-v2's cipher mode 1: C1 ‖ C3 ‖ C2. */
const c1c3c2 = 1;
/** C1 without its 04 prefix (x ‖ y, 64 bytes) then C3 (SM3, 32 bytes): the hex before the ciphertext. */
const sealOverheadHex = 128 + 64;
const hexPattern = /^[0-9a-fA-F]+$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Why a seal could not be opened (the route turns each into a 400 that says so). */
export type SealProblem = 'malformed' | 'undecryptable';

export class SealError extends Error {
  constructor(readonly problem: SealProblem) {
    super(problem === 'malformed' ? 'the sealed password is not SM2 C1C3C2 hex' : 'the sealed password cannot be opened with the server key');
    this.name = 'SealError';
  }
}

interface SealKeyPair {
  /** Kept only here, in memory; never logged, never returned. */
  readonly privateKey: string;
  readonly publicKey: string;
}

export interface PasswordSealServiceDeps {
  repo: SealKeyRepository;
  now: () => number;
}

/**
 * Lets the browser send a new password to the server without it crossing the network in clear, so the
 * server can check the password policy itself: the browser encrypts the password with SM2 to this
 * installation's public key (`sm2.doEncrypt(password, sealKey, 1)` of sm-crypto-v2: C1C3C2 hex, C1 without
 * its 04 prefix); the server opens it with the private key. The pair is made once per installation and
 * stored in the database, so every server process on one database uses the same pair.
 */
export class PasswordSealService {
  private pair: Promise<SealKeyPair> | null = null;

  private readonly repo: SealKeyRepository;
  private readonly now: () => number;

  constructor(deps: PasswordSealServiceDeps) {
    this.repo = deps.repo;
    this.now = deps.now;
  }

  private keyPair(): Promise<SealKeyPair> {
    this.pair ??= this.loadOrCreate().catch((error: unknown) => {
      this.pair = null; // try again on the next call (the database may have been down)
      throw error;
    });
    return this.pair;
  }

  private async loadOrCreate(): Promise<SealKeyPair> {
    const stored = await this.repo.find(passwordSealKeyName);
    if (stored) return { privateKey: stored.private_key, publicKey: stored.public_key };
    const made = sm2.generateKeyPairHex();
    const row = await this.repo.insertIfAbsentThenRead({
      name: passwordSealKeyName,
      private_key: made.privateKey,
      public_key: made.publicKey,
      created_at: this.now(),
    });
    return { privateKey: row.private_key, publicKey: row.public_key };
  }

  /** The SM2 public key, uncompressed hex (`04` ‖ x ‖ y, 130 hex digits). */
  async sealKey(): Promise<string> {
    return (await this.keyPair()).publicKey;
  }

  /** The UTF-8 text inside a seal; throws SealError when it is not a seal made to this installation's key. */
  async open(sealed: string): Promise<string> {
    if (sealed.length <= sealOverheadHex || sealed.length % 2 !== 0 || !hexPattern.test(sealed)) throw new SealError('malformed');
    const { privateKey } = await this.keyPair();
    let bytes: Uint8Array;
    try {
      // doDecrypt reads the private key as hex (a number), and answers an empty array when C3 does not match.
      bytes = sm2.doDecrypt(sealed.toLowerCase(), privateKey, c1c3c2, { output: 'array' });
    } catch {
      throw new SealError('undecryptable'); // C1 is not a point of the curve
    }
    if (bytes.length === 0) throw new SealError('undecryptable');
    try {
      return strictUtf8.decode(bytes);
    } catch {
      throw new SealError('undecryptable');
    }
  }
}

import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hmacSm3, sm3 } from '@campus/card-crypto';
import { makePrivateDir, privateFileMode } from './private-files.ts';

const kekBytes = 32;
const ivBytes = 16;
const format = 'kek1';

/**
 * What a sealed text is for: each purpose derives keys of its own from the one KEK, so a text sealed for one purpose
 * never opens as another's (an identity provider's client secret is not a system key). `system-key` is the gate
 * system key's, whose sealed texts predate the others and keep their format.
 */
export type SealPurpose = 'system-key' | 'sso-client-secret' | 'sso-id-token';

/**
 * Seals secrets at rest: SM4-CBC under a key derived from a key-encryption key (KEK) and the purpose, then HMAC-SM3
 * over everything, so a changed byte, another KEK or another purpose is told apart from a text that opens. The KEK
 * lives in a file outside the database (SYSTEM_KEY_KEK_FILE, default `<data>/system-key.kek`, mode 0600), made at
 * the first seal: a copy of the database alone gives no sealed secret away.
 */
export class KekSealer {
  private kek: Buffer | null = null;

  constructor(readonly kekFile: string) {}

  private key(): Buffer {
    this.kek ??= this.loadOrCreate();
    return this.kek;
  }

  /** The KEK the file holds, or null when there is no file (never creates one). */
  private readFile(): Buffer | null {
    let text: string;
    try {
      text = fs.readFileSync(this.kekFile, 'utf8').trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${this.kekFile} does not hold a key-encryption key (64 hex digits)`);
    return Buffer.from(text, 'hex');
  }

  private loadOrCreate(): Buffer {
    const stored = this.readFile();
    if (stored) return stored;
    const made = randomBytes(kekBytes);
    makePrivateDir(path.dirname(this.kekFile));
    // written whole beside it, then linked into place: a full disk leaves no half-written KEK that would stop every
    // later start, and a second server process starting at the same time keeps the file the first one linked
    const written = `${this.kekFile}.new-${process.pid}`;
    try {
      fs.writeFileSync(written, `${made.toString('hex')}\n`, { mode: privateFileMode, flag: 'w' });
      fs.linkSync(written, this.kekFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return this.loadOrCreate();
      throw error;
    } finally {
      fs.rmSync(written, { force: true });
    }
    return made;
  }

  /**
   * Reads the file again when it may have changed under this process: the nodes of one installation share the
   * file, and a node that lost it made a new one and sealed again under it (the system key's recovery with the
   * system key card). True when the KEK in memory was replaced.
   */
  private reload(): boolean {
    const stored = this.readFile();
    if (!stored || (this.kek !== null && stored.equals(this.kek))) return false;
    this.kek = stored;
    return true;
  }

  private parts(purpose: SealPurpose): { enc: Buffer; mac: Buffer; id: string } {
    const kek = this.key();
    return {
      enc: hmacSm3(kek, `campus-${purpose}-seal-enc-v1`).subarray(0, 16),
      mac: hmacSm3(kek, `campus-${purpose}-seal-mac-v1`),
      id: sm3(Buffer.concat([Buffer.from('campus-kek-id-v1'), kek])).subarray(0, 4).toString('hex'),
    };
  }

  /** `kek1:<kek id>:<iv>:<ciphertext>:<mac>` (hex), under the KEK the file holds now. */
  seal(purpose: SealPurpose, secret: Uint8Array): string {
    if (this.kek !== null) this.reload();
    const { enc, mac, id } = this.parts(purpose);
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('sm4-cbc', enc, iv);
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    const head = `${format}:${id}:${iv.toString('hex')}:${body.toString('hex')}`;
    return `${head}:${hmacSm3(mac, head).toString('hex')}`;
  }

  /**
   * The sealed secret, or null when this KEK did not seal it for this purpose (another or a lost KEK) or the text
   * was changed. A text sealed under another KEK id has the file read again first: another node may have replaced
   * the shared KEK (so this one never keeps refusing a text the file opens, until it restarts).
   */
  open(purpose: SealPurpose, sealed: string): Buffer | null {
    const [, id] = sealed.split(':');
    if (id !== undefined && id !== this.parts(purpose).id) this.reload();
    return this.openWith(purpose, sealed);
  }

  private openWith(purpose: SealPurpose, sealed: string): Buffer | null {
    const [kind, id, ivHex, bodyHex, macHex] = sealed.split(':');
    if (kind !== format || ivHex === undefined || bodyHex === undefined || macHex === undefined) return null;
    const parts = this.parts(purpose);
    if (id !== parts.id) return null;
    const expected = hmacSm3(parts.mac, `${kind}:${id}:${ivHex}:${bodyHex}`);
    const given = Buffer.from(macHex, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const decipher = createDecipheriv('sm4-cbc', parts.enc, Buffer.from(ivHex, 'hex'));
      return Buffer.concat([decipher.update(Buffer.from(bodyHex, 'hex')), decipher.final()]);
    } catch {
      return null;
    }
  }

  /** A text sealed for `purpose` (UTF-8). */
  sealText(purpose: SealPurpose, text: string): string {
    return this.seal(purpose, Buffer.from(text, 'utf8'));
  }

  /** The text sealed for `purpose`, or null (see open). */
  openText(purpose: SealPurpose, sealed: string): string | null {
    return this.open(purpose, sealed)?.toString('utf8') ?? null;
  }
}

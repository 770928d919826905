import { createCipheriv, createDecipheriv, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { hmacSm3, sm3 } from '@campus/card-crypto';

const kekBytes = 32;
const ivBytes = 16;
const format = 'kek1';

/**
 * Keeps the installation's system key sealed at rest: SM4-CBC under a key-encryption key (KEK), then
 * HMAC-SM3 over everything, so a changed byte or another KEK is told apart from a key that opens. The KEK
 * lives in a file outside the database (SYSTEM_KEY_KEK_FILE, default `<data>/system-key.kek`, mode 0600):
 * a copy of the database alone does not give the system key away.
 */
export class SystemKeyVault {
  private kek: Buffer | null = null;

  constructor(private readonly kekFile: string) {}

  private key(): Buffer {
    this.kek ??= this.loadOrCreate();
    return this.kek;
  }

  private loadOrCreate(): Buffer {
    try {
      const text = fs.readFileSync(this.kekFile, 'utf8').trim();
      if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${this.kekFile} does not hold a key-encryption key (64 hex digits)`);
      return Buffer.from(text, 'hex');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const made = randomBytes(kekBytes);
    fs.mkdirSync(path.dirname(this.kekFile), { recursive: true });
    try {
      // 'wx': a second server process starting at the same time keeps the file the first one wrote
      fs.writeFileSync(this.kekFile, `${made.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return this.loadOrCreate();
      throw error;
    }
    return made;
  }

  private parts(): { enc: Buffer; mac: Buffer; id: string } {
    const kek = this.key();
    return {
      enc: hmacSm3(kek, 'campus-system-key-seal-enc-v1').subarray(0, 16),
      mac: hmacSm3(kek, 'campus-system-key-seal-mac-v1'),
      id: sm3(Buffer.concat([Buffer.from('campus-kek-id-v1'), kek])).subarray(0, 4).toString('hex'),
    };
  }

  /** `kek1:<kek id>:<iv>:<ciphertext>:<mac>` (hex). */
  seal(secret: Uint8Array): string {
    const { enc, mac, id } = this.parts();
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('sm4-cbc', enc, iv);
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    const head = `${format}:${id}:${iv.toString('hex')}:${body.toString('hex')}`;
    return `${head}:${hmacSm3(mac, head).toString('hex')}`;
  }

  /** The sealed secret, or null when this KEK did not seal it (another or a lost KEK) or the text was changed. */
  open(sealed: string): Buffer | null {
    const [kind, id, ivHex, bodyHex, macHex] = sealed.split(':');
    if (kind !== format || ivHex === undefined || bodyHex === undefined || macHex === undefined) return null;
    const parts = this.parts();
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
}

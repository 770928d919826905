import { KekSealer } from '../../lib/kek-seal.ts';

/**
 * Keeps the installation's system key sealed at rest under the key-encryption key (KEK) file SYSTEM_KEY_KEK_FILE
 * (lib/kek-seal.ts, purpose `system-key`): SM4-CBC, then HMAC-SM3 over everything, so a changed byte or another KEK
 * is told apart from a key that opens. A copy of the database alone does not give the system key away.
 */
export class SystemKeyVault {
  private readonly sealer: KekSealer;

  /** Over the KEK file, or over the sealer the installation's other sealed secrets share (services.ts). */
  constructor(kek: string | KekSealer) {
    this.sealer = typeof kek === 'string' ? new KekSealer(kek) : kek;
  }

  /** `kek1:<kek id>:<iv>:<ciphertext>:<mac>` (hex), under the KEK the file holds now. */
  seal(secret: Uint8Array): string {
    return this.sealer.seal('system-key', secret);
  }

  /** The sealed secret, or null when this KEK did not seal it (another or a lost KEK) or the text was changed. */
  open(sealed: string): Buffer | null {
    return this.sealer.open('system-key', sealed);
  }
}

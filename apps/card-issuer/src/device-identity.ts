import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { isSm2PublicKey, systemKeyId } from '@campus/card-crypto';

/**
 * The issuer's own SM2 key pair, made on first start and kept in its data folder (mode 0600). The server
 * seals the system key to its public key (GetSysKeyData, issue 13), so the key crosses the browser sealed and
 * only this issuer opens it; the system key itself is never written to disk.
 */
export class DeviceIdentity {
  readonly publicKey: string;
  readonly deviceId: string;
  private readonly privateKey: string;

  constructor(dataDir: string) {
    const file = path.join(dataDir, 'device-key.json');
    let keys: { publicKey: string; privateKey: string } | null = null;
    try {
      keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    } catch {
      keys = null;
    }
    if (!keys || typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string' || !isSm2PublicKey(keys.publicKey)) {
      const made = sm2.generateKeyPairHex();
      keys = { publicKey: made.publicKey, privateKey: made.privateKey };
      // the folder (and DATA_DIR above it, when the issuer starts before the server) for this user only: it holds the device key
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
    }
    this.publicKey = keys.publicKey;
    this.privateKey = keys.privateKey;
    this.deviceId = createHash('sm3').update(Buffer.from(this.publicKey, 'hex')).digest('hex').slice(0, 16).toUpperCase();
  }

  /** Opens sysKeyData (hex of SM2 C1C3C2 of SK ‖ kid): the system key, or null when it is not for this issuer. */
  openSystemKey(sysKeyData: string): Buffer | null {
    let plain: Uint8Array;
    try {
      plain = sm2.doDecrypt(sysKeyData, this.privateKey, 1, { output: 'array' }) as Uint8Array;
    } catch {
      return null;
    }
    if (!plain || plain.length !== 24) return null;
    const systemKey = Buffer.from(plain.subarray(0, 16));
    return systemKeyId(systemKey).equals(Buffer.from(plain.subarray(16, 24))) ? systemKey : null;
  }
}

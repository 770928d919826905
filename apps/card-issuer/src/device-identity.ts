import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { isSm2PublicKey, issuerDeviceId, signIssuerChallenge, systemKeyId } from '@campus/card-crypto';

interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** The PC's name as the server's registry of trusted issuers shows it: what the server's schema takes. */
export function reportedHostName(name: string = os.hostname()): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63);
  return cleaned === '' ? 'unnamed' : cleaned;
}

function readKeys(file: string): KeyPair | null {
  try {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<KeyPair> | null;
    return keys && typeof keys.publicKey === 'string' && typeof keys.privateKey === 'string' && isSm2PublicKey(keys.publicKey) ? { publicKey: keys.publicKey, privateKey: keys.privateKey } : null;
  } catch {
    return null;
  }
}

/**
 * The issuer's own SM2 key pair, made on first start and kept in its data folder. The server seals the system key
 * to its public key (GetSysKeyData, issue 13), so the key crosses the browser sealed and only this issuer opens it;
 * the system key itself is never written to disk. The server hands the key out only for a challenge this key signs
 * and only while the issuer's trust lasts (issue 46 item 1, docs/cards.md "Trusted issuers").
 *
 * On Linux and macOS the folder is this user's only (0700) and the key file 0600, set again at every start: a
 * folder copied by someone else, or restored with looser modes, does not keep another user able to read the key.
 */
export class DeviceIdentity {
  private keys: KeyPair;
  private readonly file: string;

  constructor(private readonly dataDir: string) {
    this.file = path.join(dataDir, 'device-key.json');
    const stored = readKeys(this.file);
    this.keys = stored ?? this.makeKeys();
    this.restrictModes();
  }

  get publicKey(): string {
    return this.keys.publicKey;
  }

  get deviceId(): string {
    return issuerDeviceId(this.keys.publicKey);
  }

  /** The server's key challenge signed with this PC's name (SignKeyChallenge). */
  signChallenge(challenge: string, hostName: string = reportedHostName()): { hostName: string; signature: string } {
    return { hostName, signature: signIssuerChallenge(this.keys.privateKey, this.keys.publicKey, challenge, hostName) };
  }

  /** A new key pair in place of this one (after a system administrator revoked it: that key is never trusted again). */
  renew(): void {
    this.keys = this.makeKeys();
    this.restrictModes();
  }

  /** Opens sysKeyData (hex of SM2 C1C3C2 of SK ‖ kid): the system key, or null when it is not for this issuer. */
  openSystemKey(sysKeyData: string): Buffer | null {
    let plain: Uint8Array;
    try {
      plain = sm2.doDecrypt(sysKeyData, this.keys.privateKey, 1, { output: 'array' }) as Uint8Array;
    } catch {
      return null;
    }
    if (!plain || plain.length !== 24) return null;
    const systemKey = Buffer.from(plain.subarray(0, 16));
    return systemKeyId(systemKey).equals(Buffer.from(plain.subarray(16, 24))) ? systemKey : null;
  }

  private makeKeys(): KeyPair {
    const made = sm2.generateKeyPairHex();
    const keys = { publicKey: made.publicKey, privateKey: made.privateKey };
    // the folder (and DATA_DIR above it, when the issuer starts before the server) for this user only: it holds the device key
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.new`;
    fs.writeFileSync(temporary, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.file);
    return keys;
  }

  private restrictModes(): void {
    if (process.platform === 'win32') return; // Windows: the folder's ACL and DPAPI (the Windows issue)
    fs.chmodSync(this.dataDir, 0o700);
    fs.chmodSync(this.file, 0o600);
  }
}

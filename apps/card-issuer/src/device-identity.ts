import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { isSm2PublicKey, issuerDeviceId, signIssuerChallenge, systemKeyId } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';

interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** Seals the private key to this PC (Windows: DPAPI, windows/dpapi.ts). */
export interface KeySealer {
  /** What the key file says sealed it, e.g. dpapi-machine. */
  readonly kind: string;
  seal(secret: Buffer): Buffer;
  /** null when this PC cannot open it (sealed on another PC). */
  open(sealed: Buffer): Buffer | null;
}

export interface DeviceIdentityOptions {
  /** The sealer of this platform (platformKeySealer()); none: the key file holds the private key itself. */
  sealer?: KeySealer | null;
  /** What the issuer should tell its log (a key sealed on another PC, a key sealed now). */
  notify?: (message: Localised) => void;
}

/** The sealer of this platform: DPAPI on Windows; none elsewhere, where the file modes keep the key this user's. */
export async function platformKeySealer(): Promise<KeySealer | null> {
  if (process.platform !== 'win32') return null;
  return (await import('./windows/dpapi.ts')).dpapiMachineSealer;
}

export const deviceKeyMessages = {
  sealedElsewhere: (file: string, aside: string): Localised => ({
    'en-US': `The device key in ${file} was sealed on another PC and cannot be opened on this one: this PC made a new device key. The campus server trusts it only after the system key card is read again (the shell asks for it). The old file is kept as ${aside}.`,
    'zh-CN': `${file} 中的设备密钥是在另一台电脑上封存的，本机无法打开：本机已生成新的设备密钥。校园服务器需要重新读取系统密钥卡后才会信任它（平台会提示）。旧文件已保留为 ${aside}。`,
    'zh-MO': `${file} 中的裝置金鑰是在另一台電腦上封存的，本機無法開啟：本機已產生新的裝置金鑰。校園伺服器需要重新讀取系統金鑰卡後才會信任它（平台會提示）。舊檔案已保留為 ${aside}。`,
  }),
  sealedNow: (file: string): Localised => ({
    'en-US': `The device key in ${file} is now sealed to this PC (Windows DPAPI).`,
    'zh-CN': `${file} 中的设备密钥现已封存到本机（Windows DPAPI）。`,
    'zh-MO': `${file} 中的裝置金鑰現已封存到本機（Windows DPAPI）。`,
  }),
};

/** device-key.json: the private key itself (Linux, macOS, an old Windows issuer) or sealed by `with`. */
type StoredKeys = { plain: KeyPair } | { sealed: { publicKey: string; with: string; data: Buffer } };

/** The PC's name as the server's registry of trusted issuers shows it: what the server's schema takes. */
export function reportedHostName(name: string = os.hostname()): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63);
  return cleaned === '' ? 'unnamed' : cleaned;
}

function readKeys(file: string): StoredKeys | null {
  try {
    const keys = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey?: unknown; privateKey?: unknown; sealedPrivateKey?: { with?: unknown; data?: unknown } } | null;
    if (!keys || typeof keys.publicKey !== 'string' || !isSm2PublicKey(keys.publicKey)) return null;
    if (typeof keys.privateKey === 'string') return { plain: { publicKey: keys.publicKey, privateKey: keys.privateKey } };
    const sealed = keys.sealedPrivateKey;
    if (sealed && typeof sealed.with === 'string' && typeof sealed.data === 'string') {
      return { sealed: { publicKey: keys.publicKey, with: sealed.with, data: Buffer.from(sealed.data, 'base64') } };
    }
    return null;
  } catch {
    return null;
  }
}

/** The key pair of a private key opened from its seal, if it is the one that belongs to `publicKey`. */
function pairOf(publicKey: string, secret: Buffer | null): KeyPair | null {
  if (!secret || secret.length !== 32) return null;
  const privateKey = secret.toString('hex');
  try {
    return sm2.getPublicKeyFromPrivateKey(privateKey) === publicKey ? { publicKey, privateKey } : null;
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
 * On Windows the private key is sealed to the PC (DPAPI, windows/dpapi.ts): a key file from before is sealed at the
 * first start, and one sealed on another PC opens nothing here: the issuer says so, keeps that file aside and makes
 * a new key pair, which the server trusts only after the system key card is read again.
 */
export class DeviceIdentity {
  private keys: KeyPair;
  private readonly file: string;
  private readonly sealer: KeySealer | null;
  private readonly notify: (message: Localised) => void;

  constructor(
    private readonly dataDir: string,
    options: DeviceIdentityOptions = {},
  ) {
    this.file = path.join(dataDir, 'device-key.json');
    this.sealer = options.sealer ?? null;
    this.notify = options.notify ?? (() => {});
    this.keys = this.loadKeys();
    this.restrictModes();
  }

  private loadKeys(): KeyPair {
    const stored = readKeys(this.file);
    if (!stored) return this.makeKeys();
    if ('plain' in stored) {
      if (this.sealer) {
        this.writeKeys(stored.plain);
        this.notify(deviceKeyMessages.sealedNow(this.file));
      }
      return stored.plain;
    }
    const { sealed } = stored;
    const opened = this.sealer && this.sealer.kind === sealed.with ? pairOf(sealed.publicKey, this.sealer.open(sealed.data)) : null;
    if (opened) return opened;
    const aside = `${this.file}.unopened`;
    fs.renameSync(this.file, aside);
    this.notify(deviceKeyMessages.sealedElsewhere(this.file, aside));
    return this.makeKeys();
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
    this.writeKeys(keys);
    return keys;
  }

  private writeKeys(keys: KeyPair): void {
    const stored = this.sealer
      ? { publicKey: keys.publicKey, sealedPrivateKey: { with: this.sealer.kind, data: this.sealer.seal(Buffer.from(keys.privateKey.padStart(64, '0'), 'hex')).toString('base64') } }
      : keys;
    // the folder (and DATA_DIR above it, when the issuer starts before the server) for this user only: it holds the device key
    fs.mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.new`;
    fs.writeFileSync(temporary, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, this.file);
  }

  private restrictModes(): void {
    if (process.platform === 'win32') return; // Windows: the folder's ACL and DPAPI (the Windows issue)
    fs.chmodSync(this.dataDir, 0o700);
    fs.chmodSync(this.file, 0o600);
  }
}

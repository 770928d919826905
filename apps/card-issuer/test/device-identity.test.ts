import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { isSm2PublicKey, systemKeyId } from '@campus/card-crypto';
import type { Localised } from '@campus/contracts';
import { DeviceIdentity, reportedHostName } from '../src/device-identity.ts';
import type { KeySealer } from '../src/device-identity.ts';

const systemKey = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A data folder holding `stored` as its device-key.json. */
function dataDirWith(stored: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'device-key.json'), `${JSON.stringify(stored)}\n`, { mode: 0o600 });
  return dir;
}

const storedKeys = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'device-key.json'), 'utf8')) as { publicKey: string; privateKey: string };

/** The system key data as the server seals it to a device key (GetSysKeyData, issue 13). */
const sealedTo = (publicKey: string) => sm2.doEncrypt(new Uint8Array(Buffer.concat([systemKey, systemKeyId(systemKey)])), publicKey, 1);

describe('the card issuer: its stored device key pair', () => {
  it('keeps a stored key pair that is sound', () => {
    const pair = sm2.generateKeyPairHex();
    const dir = dataDirWith({ publicKey: pair.publicKey, privateKey: pair.privateKey });
    const identity = new DeviceIdentity(dir);
    expect(identity.publicKey).toBe(pair.publicKey);
    expect(identity.openSystemKey(sealedTo(pair.publicKey))).toEqual(systemKey);
  });

  it('makes a new key pair, instead of failing to start, when the stored public key is off the curve', () => {
    const pair = sm2.generateKeyPairHex();
    const offCurve = pair.publicKey.slice(0, -1) + (pair.publicKey.endsWith('0') ? '1' : '0');
    const dir = dataDirWith({ publicKey: offCurve, privateKey: pair.privateKey });
    const identity = new DeviceIdentity(dir);
    expect(identity.publicKey).not.toBe(offCurve);
    expect(isSm2PublicKey(identity.publicKey)).toBe(true);
    expect(storedKeys(dir).publicKey).toBe(identity.publicKey);
    expect(identity.openSystemKey(sealedTo(identity.publicKey))).toEqual(systemKey);
    expect(new DeviceIdentity(dir).publicKey).toBe(identity.publicKey);
  });

  it('makes a new key pair when the stored public key is not 04 and 128 hex digits', () => {
    for (const publicKey of ['', '04abcd', `04${'z'.repeat(128)}`]) {
      const dir = dataDirWith({ publicKey, privateKey: sm2.generateKeyPairHex().privateKey });
      expect(isSm2PublicKey(new DeviceIdentity(dir).publicKey)).toBe(true);
    }
  });
});

describe('the card issuer: its data folder on disk', () => {
  it('is made for this user only, with the data folder above it when the issuer starts first (it holds the device key)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'campus-issuer-'));
    dirs.push(root);
    const dataDir = path.join(root, 'data', 'card-issuer');
    new DeviceIdentity(dataDir);
    expect(fs.statSync(path.join(root, 'data')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'device-key.json')).mode & 0o777).toBe(0o600);
  });
  it('is made this user’s only again at every start: a folder restored or copied with looser modes is closed (Linux, macOS)', () => {
    if (process.platform === 'win32') return; // Windows: DPAPI and the folder's ACL (another issue)
    const pair = sm2.generateKeyPairHex();
    const dir = dataDirWith({ publicKey: pair.publicKey, privateKey: pair.privateKey });
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'device-key.json'), 0o644);
    expect(new DeviceIdentity(dir).publicKey).toBe(pair.publicKey);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'device-key.json')).mode & 0o777).toBe(0o600);
  });

  it('names the PC as the server takes it: letters, digits, dot, dash and underscore, at most 63', () => {
    expect(reportedHostName('FRONT-DESK-1')).toBe('FRONT-DESK-1');
    expect(reportedHostName('前台 电脑')).toBe('-----');
    expect(reportedHostName('x'.repeat(80))).toHaveLength(63);
    expect(reportedHostName('')).toBe('unnamed');
  });
});

/** A sealer like DPAPI's: what one PC seals (AES-GCM under that PC's key) opens on that PC only. */
function pcSealer(pcKey = crypto.randomBytes(32)): KeySealer {
  return {
    kind: 'dpapi-machine',
    seal(secret) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', pcKey, iv);
      return Buffer.concat([iv, cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    },
    open(sealed) {
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', pcKey, sealed.subarray(0, 12));
        decipher.setAuthTag(sealed.subarray(-16));
        return Buffer.concat([decipher.update(sealed.subarray(12, -16)), decipher.final()]);
      } catch {
        return null;
      }
    },
  };
}

describe('the card issuer: its device key sealed to the PC (Windows, DPAPI)', () => {
  const collect = () => {
    const notes: Localised[] = [];
    return { notes, notify: (message: Localised) => notes.push(message) };
  };

  it('keeps only the sealed private key on disk and opens it at the next start on the same PC', () => {
    const dir = dataDirWith(null);
    const sealer = pcSealer();
    const first = new DeviceIdentity(dir, { sealer });
    const stored = JSON.parse(fs.readFileSync(path.join(dir, 'device-key.json'), 'utf8')) as Record<string, unknown>;
    expect(stored).toEqual({ publicKey: first.publicKey, sealedPrivateKey: { with: 'dpapi-machine', data: expect.any(String) } });
    const { notes, notify } = collect();
    const again = new DeviceIdentity(dir, { sealer, notify });
    expect(again.publicKey).toBe(first.publicKey);
    expect(again.openSystemKey(sealedTo(first.publicKey))).toEqual(systemKey);
    expect(notes).toEqual([]);
  });

  it('seals a plain key file from before at the first start, keeping the key pair the server trusts', () => {
    const pair = sm2.generateKeyPairHex();
    const dir = dataDirWith({ publicKey: pair.publicKey, privateKey: pair.privateKey });
    const sealer = pcSealer();
    const { notes, notify } = collect();
    const identity = new DeviceIdentity(dir, { sealer, notify });
    expect(identity.publicKey).toBe(pair.publicKey);
    expect(fs.readFileSync(path.join(dir, 'device-key.json'), 'utf8')).not.toContain(pair.privateKey);
    expect(notes.map((note) => note['en-US'])).toEqual([`The device key in ${path.join(dir, 'device-key.json')} is now sealed to this PC (Windows DPAPI).`]);
    expect(new DeviceIdentity(dir, { sealer }).openSystemKey(sealedTo(pair.publicKey))).toEqual(systemKey);
  });

  it('on another PC opens nothing: says so in three languages, keeps the file aside and makes a new key pair', () => {
    const dir = dataDirWith(null);
    const original = new DeviceIdentity(dir, { sealer: pcSealer() });
    const file = path.join(dir, 'device-key.json');
    const sealedFile = fs.readFileSync(file, 'utf8');
    const { notes, notify } = collect();
    const elsewhere = new DeviceIdentity(dir, { sealer: pcSealer(), notify });
    expect(elsewhere.publicKey).not.toBe(original.publicKey);
    expect(elsewhere.openSystemKey(sealedTo(original.publicKey))).toBeNull();
    expect(fs.readFileSync(`${file}.unopened`, 'utf8')).toBe(sealedFile);
    expect(notes).toHaveLength(1);
    expect(notes[0]!['en-US']).toContain('was sealed on another PC and cannot be opened on this one: this PC made a new device key');
    expect(notes[0]!['zh-CN']).toContain('是在另一台电脑上封存的');
    expect(notes[0]!['zh-MO']).toContain('是在另一台電腦上封存的');
  });

  it('does not take a sealed key whose private half is not the stored public key’s', () => {
    const dir = dataDirWith(null);
    const sealer = pcSealer();
    const original = new DeviceIdentity(dir, { sealer });
    const file = path.join(dir, 'device-key.json');
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string };
    const other = sm2.generateKeyPairHex();
    fs.writeFileSync(file, JSON.stringify({ ...stored, publicKey: other.publicKey }));
    const { notes, notify } = collect();
    const identity = new DeviceIdentity(dir, { sealer, notify });
    expect([original.publicKey, other.publicKey]).not.toContain(identity.publicKey);
    expect(notes).toHaveLength(1);
  });

  it('a Windows data folder copied to Linux: the sealed key opens nothing there either', () => {
    const dir = dataDirWith(null);
    const original = new DeviceIdentity(dir, { sealer: pcSealer() });
    const { notes, notify } = collect();
    const onLinux = new DeviceIdentity(dir, { notify });
    expect(onLinux.publicKey).not.toBe(original.publicKey);
    expect(notes).toHaveLength(1);
    expect(storedKeys(dir).privateKey).toMatch(/^[0-9a-f]{64}$/);
  });
});

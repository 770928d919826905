import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sm2 } from 'sm-crypto-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { isSm2PublicKey, systemKeyId } from '@campus/card-crypto';
import { DeviceIdentity, reportedHostName } from '../src/device-identity.ts';

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

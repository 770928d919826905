import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { LicenceFormatError, checkSignature, generateKeyPair, issueLicenceFile, parseLicenceFile, readPayload, trustedKey } from '../../src/modules/licence/licence-file.ts';
import type { ParsedLicence } from '../../src/modules/licence/licence-file.ts';
import { readTrustFile, testTrustFile } from '../../src/modules/licence/licence-trust.ts';
import { edKey, samplePayload, smKey } from '../support/licence-helpers.ts';

const trust = readTrustFile(testTrustFile);

const parse = (text: string) => parseLicenceFile(Buffer.from(text, 'utf8'));

/** The file with one byte of its text changed at `index` (to another base64 letter). */
function changeByte(text: string, index: number): string {
  const c = text[index] === 'A' ? 'B' : 'A';
  return text.slice(0, index) + c + text.slice(index + 1);
}

describe('licence files: Ed25519', () => {
  const text = issueLicenceFile(samplePayload(), edKey);

  it('a file as issued verifies and its payload reads back field by field', () => {
    const parsed = parse(text);
    expect(checkSignature(parsed, trust)).toBe('ok');
    expect(readPayload(parsed.payloadBytes)).toEqual(samplePayload());
  });

  it('one changed byte in the payload or the signature: the signature no longer matches', () => {
    const file = JSON.parse(text) as { payload: string; signature: string };
    const payloadAt = text.indexOf(file.payload) + 40;
    const signatureAt = text.indexOf(file.signature) + 10;
    for (const at of [payloadAt, signatureAt]) expect(checkSignature(parse(changeByte(text, at)), trust)).toBe('badSignature');
  });

  it('one changed byte of the structure makes it unreadable (refused the same way by the server)', () => {
    expect(() => parse(text.replace('"alg"', '"alh"'))).toThrow(LicenceFormatError);
    expect(() => parse(text.replace('{', '['))).toThrow(LicenceFormatError);
  });

  it('an unknown kid, or a kid whose key is of the other algorithm, is refused', () => {
    const unknown = issueLicenceFile(samplePayload(), { ...edKey, kid: 'someone-else' });
    expect(checkSignature(parse(unknown), trust)).toBe('unknownKey');
    const mixed = JSON.parse(text) as Record<string, string>;
    mixed.kid = 'test-sm2-2026';
    expect(checkSignature(parse(JSON.stringify(mixed)), trust)).toBe('wrongAlgorithm');
    mixed.alg = 'SM2';
    expect(checkSignature(parse(JSON.stringify(mixed)), trust)).toBe('badSignature');
  });

  it('a key pair made by another vendor does not verify under our kid', () => {
    const other = generateKeyPair('Ed25519');
    const forged = issueLicenceFile(samplePayload(), { alg: 'Ed25519', kid: edKey.kid, privateKey: other.privateKey });
    expect(checkSignature(parse(forged), trust)).toBe('badSignature');
  });

  it('the outer shape is strict: extra fields, missing fields, bad base64, wrong signature length, size limit', () => {
    const file = JSON.parse(text) as Record<string, string>;
    expect(() => parse(JSON.stringify({ ...file, extra: 1 }))).toThrow(/unknown field extra/);
    expect(() => parse(JSON.stringify({ alg: file.alg, kid: file.kid, payload: file.payload }))).toThrow(/lacks field signature/);
    expect(() => parse(JSON.stringify({ ...file, payload: 'not base64!' }))).toThrow(/payload is not base64/);
    expect(() => parse(JSON.stringify({ ...file, signature: Buffer.alloc(63).toString('base64') }))).toThrow(/64 bytes/);
    expect(() => parse(JSON.stringify({ ...file, alg: 'RSA' }))).toThrow(/alg/);
    expect(() => parseLicenceFile(Buffer.alloc(256 * 1024 + 1, 32))).toThrow(/larger than/);
    expect(() => parseLicenceFile(Buffer.from([0xff, 0xfe]))).toThrow(/UTF-8/);
  });

  it('the payload is checked field by field', () => {
    const read = (value: unknown) => () => readPayload(Buffer.from(JSON.stringify(value), 'utf8'));
    expect(read({ ...samplePayload(), extra: true })).toThrow(/unknown field extra/);
    expect(read({ ...samplePayload(), customerNo: '01234' })).toThrow(/customerNo/);
    expect(read({ ...samplePayload(), empCount: 0 })).toThrow(/empCount/);
    expect(read({ ...samplePayload(), beginTime: Date.UTC(2030, 0, 2) })).toThrow(/ends before it begins/);
    expect(read({ ...samplePayload(), isFormal: 'yes' })).toThrow(/isFormal/);
    expect(read({ ...samplePayload(), format: 2 })).toThrow(/format/);
    expect(read({ ...samplePayload(), infos: [{ appId: 'qy' }] })).toThrow(/infos\[0\]/);
    expect(read({ ...samplePayload(), devices: [{ deviceName: 'Gate', count: -2, beginTime: null, endTime: null, remarks: '' }] })).toThrow(/count/);
    expect(() => issueLicenceFile(samplePayload({ code: '' }), edKey)).toThrow(/code/);
  });
});

describe('licence files: SM2 with SM3', () => {
  const fixture = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'licence-sm2-known-answer.json'), 'utf8')) as { kid: string; publicKey: string; message: string; signature: string };
  const fixtureFile = (signature: string): ParsedLicence => ({
    file: { alg: 'SM2', kid: fixture.kid, payload: fixture.message, signature },
    payloadBytes: Buffer.from(fixture.message, 'base64'),
  });

  it('known answer: the committed signature verifies under the committed public key, and nothing else does', () => {
    expect(trustedKey('SM2', fixture.publicKey).key).toBe(fixture.publicKey);
    expect(checkSignature(fixtureFile(fixture.signature), trust)).toBe('ok');
    const bytes = Buffer.from(fixture.signature, 'base64');
    bytes[5] = (bytes[5] ?? 0) ^ 1;
    expect(checkSignature(fixtureFile(bytes.toString('base64')), trust)).toBe('badSignature');
    const other = { ...fixtureFile(fixture.signature), payloadBytes: Buffer.from('{"licence-payload":"SM2 known answeR"}') };
    expect(checkSignature(other, trust)).toBe('badSignature');
  });

  it('interoperates with OpenSSL 3 (an OpenSSL-made DER fixture, default user id)', () => {
    const publicKey = '04d526d6e713087ee80c0806787bb8a0de8d9c9b40e70743dbef0e2989041e32ca6af617460188ecee8f03e294946df7b56a6fac3b9d953a0b69d3afae3d870bc3';
    const der = '3045022100cf10ed9c399d833c7045e61713a6178c6349bc31f14402012608c7d81fbaf34e02201a46f5c6107a5b82e435e2b675431fefa4ffb13b20c7ee083dd0b15c2a771c50';
    expect(sm2.doVerifySignature(new Uint8Array(Buffer.from('licence-payload')), der, publicKey, { hash: true, der: true })).toBe(true);
  });

  it('a file issued with the SM2 test key verifies; one changed byte does not', () => {
    const text = issueLicenceFile(samplePayload(), smKey);
    expect(checkSignature(parse(text), trust)).toBe('ok');
    const file = JSON.parse(text) as { payload: string };
    expect(checkSignature(parse(changeByte(text, text.indexOf(file.payload) + 12)), trust)).toBe('badSignature');
  });
});

describe('trust files', () => {
  it('refuses a malformed trust file with a message naming the key', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'trust-'));
    const file = path.join(dir, 'trust.json');
    fs.writeFileSync(file, JSON.stringify({ k1: { alg: 'SM2', publicKey: '04abcd' } }));
    expect(() => readTrustFile(file)).toThrow(/key k1/);
    fs.writeFileSync(file, '[]');
    expect(() => readTrustFile(file)).toThrow(/object of keys/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an SM2 key of the right shape whose point is off the curve, with the same message', () => {
    const { publicKey } = generateKeyPair('SM2');
    const offCurve = publicKey.slice(0, -1) + (publicKey.endsWith('0') ? '1' : '0');
    expect(() => trustedKey('SM2', offCurve)).toThrow(LicenceFormatError);
    expect(() => trustedKey('SM2', offCurve)).toThrow(/^the key is not an SM2 public key \(04 followed by 128 hex digits\)$/);
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'trust-'));
    const file = path.join(dir, 'trust.json');
    fs.writeFileSync(file, JSON.stringify({ k1: { alg: 'SM2', publicKey: offCurve } }));
    expect(() => readTrustFile(file)).toThrow(/key k1: the key is not an SM2 public key/);
    fs.writeFileSync(file, JSON.stringify({ k1: { alg: 'SM2', publicKey: publicKey.toUpperCase() } }));
    expect(readTrustFile(file).get('k1')?.key).toBe(publicKey);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as edSign, verify as edVerify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { sm2 } from 'sm-crypto-v2';
import { isSm2PublicKey } from '@campus/card-crypto';
import { customerNoPattern, licenceAlgorithms, licenceLimits } from '@campus/contracts';
import type { LicenceAlgorithm, LicenceAppEdition, LicenceDeviceLimit, LicenceFile, LicencePayload } from '@campus/contracts';

/**
 * The `.lic` format (contracts' LicenceFile): one place that writes it (the vendor CLI) and reads it (the
 * server). Keys: Ed25519 public keys are base64 SPKI DER, private keys base64 PKCS#8 DER; SM2 keys are hex
 * (public uncompressed `04…`, private 64 hex digits). Signatures are base64 of the raw 64 bytes
 * (Ed25519; SM2: r ‖ s of SM3 with the default user id).
 */

export class LicenceFormatError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'LicenceFormatError';
  }
}

export interface TrustedKey {
  alg: LicenceAlgorithm;
  /** Ed25519: a node KeyObject; SM2: uncompressed hex. */
  key: KeyObject | string;
}

/** Public keys by kid. */
export type TrustList = ReadonlyMap<string, TrustedKey>;

export interface SigningKey {
  alg: LicenceAlgorithm;
  kid: string;
  /** Ed25519: base64 PKCS#8 DER; SM2: hex. Test keys only in this repository. */
  privateKey: string;
}

export interface ParsedLicence {
  file: LicenceFile;
  payloadBytes: Buffer;
}

export type SignatureCheck = 'ok' | 'unknownKey' | 'wrongAlgorithm' | 'badSignature';

const sm2Options = { hash: true, der: false } as const;
/** A key id: 1 to 64 letters, digits, '.', '_' or '-' (licence files, the trust file and the CLI). */
export const kidPattern = /^[A-Za-z0-9._-]{1,64}$/;
const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exactKeys(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  const extra = Object.keys(value).filter((k) => !keys.includes(k));
  if (extra.length > 0) throw new LicenceFormatError(`${where} has unknown field ${extra[0]}`);
  const missing = keys.filter((k) => !Object.hasOwn(value, k));
  if (missing.length > 0) throw new LicenceFormatError(`${where} lacks field ${missing[0]}`);
}

function strictBase64(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || value.length === 0 || !base64Pattern.test(value)) throw new LicenceFormatError(`${field} is not base64`);
  return Buffer.from(value, 'base64');
}

function parseJson(bytes: Uint8Array, what: string): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new LicenceFormatError(`${what} is not UTF-8 text`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LicenceFormatError(`${what} is not JSON`);
  }
}

/** Reads the outer shape of a `.lic` file; its signature is not checked here. */
export function parseLicenceFile(bytes: Uint8Array): ParsedLicence {
  if (bytes.length > licenceLimits.maxFileBytes) throw new LicenceFormatError(`the file is larger than ${licenceLimits.maxFileBytes} bytes`);
  const value = parseJson(bytes, 'the file');
  if (!isPlainObject(value)) throw new LicenceFormatError('the file is not a JSON object');
  exactKeys(value, ['alg', 'kid', 'payload', 'signature'], 'the file');
  const { alg, kid } = value;
  if (typeof alg !== 'string' || !(licenceAlgorithms as readonly string[]).includes(alg)) throw new LicenceFormatError('alg is not Ed25519 or SM2');
  if (typeof kid !== 'string' || !kidPattern.test(kid)) throw new LicenceFormatError('kid is not a key id');
  const payloadBytes = strictBase64(value.payload, 'payload');
  const signature = strictBase64(value.signature, 'signature');
  if (signature.length !== 64) throw new LicenceFormatError('signature is not 64 bytes');
  return { file: { alg: alg as LicenceAlgorithm, kid, payload: value.payload as string, signature: value.signature as string }, payloadBytes };
}

/** Whether the signature of a parsed file was made over its payload bytes by a trusted key of its kid. */
export function checkSignature(parsed: ParsedLicence, trust: TrustList): SignatureCheck {
  const trusted = trust.get(parsed.file.kid);
  if (!trusted) return 'unknownKey';
  if (trusted.alg !== parsed.file.alg) return 'wrongAlgorithm';
  const signature = Buffer.from(parsed.file.signature, 'base64');
  try {
    const valid =
      trusted.alg === 'Ed25519'
        ? edVerify(null, parsed.payloadBytes, trusted.key as KeyObject, signature)
        : sm2.doVerifySignature(new Uint8Array(parsed.payloadBytes), signature.toString('hex'), trusted.key as string, sm2Options);
    return valid ? 'ok' : 'badSignature';
  } catch {
    return 'badSignature';
  }
}

// ---- payload ----

function str(o: Record<string, unknown>, field: string, max: number, pattern?: RegExp, allowEmpty = false): string {
  const v = o[field];
  if (typeof v !== 'string' || (!allowEmpty && v.length === 0) || v.length > max || (pattern && !pattern.test(v))) {
    throw new LicenceFormatError(`payload field ${field} is not valid`);
  }
  return v;
}

function bool(o: Record<string, unknown>, field: string): boolean {
  const v = o[field];
  if (typeof v !== 'boolean') throw new LicenceFormatError(`payload field ${field} is not true or false`);
  return v;
}

function int(o: Record<string, unknown>, field: string, min: number, max: number): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) throw new LicenceFormatError(`payload field ${field} is not a whole number from ${min} to ${max}`);
  return v;
}

/** Epoch ms up to year 9999, or null. */
function time(o: Record<string, unknown>, field: string): number | null {
  return o[field] === null ? null : int(o, field, 0, 253_402_300_799_999);
}

function timeRange(o: Record<string, unknown>, where: string): { beginTime: number | null; endTime: number | null } {
  const beginTime = time(o, 'beginTime');
  const endTime = time(o, 'endTime');
  if (beginTime !== null && endTime !== null && endTime < beginTime) throw new LicenceFormatError(`${where} ends before it begins`);
  return { beginTime, endTime };
}

function list<T>(o: Record<string, unknown>, field: string, max: number, item: (v: Record<string, unknown>, where: string) => T): T[] {
  const v = o[field];
  if (!Array.isArray(v) || v.length > max) throw new LicenceFormatError(`payload field ${field} is not a list of at most ${max}`);
  return v.map((entry: unknown, i) => {
    const where = `payload ${field}[${i}]`;
    if (!isPlainObject(entry)) throw new LicenceFormatError(`${where} is not an object`);
    return item(entry, where);
  });
}

const appKeys = ['appId', 'appName', 'editionName', 'beginTime', 'endTime', 'isHasWeb', 'isHasMobile'] as const;
const deviceKeys = ['deviceName', 'count', 'beginTime', 'endTime', 'remarks'] as const;
const payloadKeys = [
  'format', 'code', 'customerNo', 'customerName', 'prdPkgCategory', 'isFormal', 'beginTime', 'endTime', 'empCount',
  'isHasMobile', 'isPermitOpenapi', 'isLimitDevice', 'infos', 'devices', 'issuedAt',
] as const;

export const licenceCodePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The payload, field by field: every field present, of its type and range, nothing else. */
export function readPayload(bytes: Uint8Array): LicencePayload {
  const o = parseJson(bytes, 'the payload');
  if (!isPlainObject(o)) throw new LicenceFormatError('the payload is not a JSON object');
  exactKeys(o, payloadKeys, 'the payload');
  if (o.format !== 1) throw new LicenceFormatError('payload format is not 1');
  const infos = list<LicenceAppEdition>(o, 'infos', 100, (e, where) => {
    exactKeys(e, appKeys, where);
    return {
      appId: str(e, 'appId', 32, /^[a-z0-9]+$/),
      appName: str(e, 'appName', 128),
      editionName: str(e, 'editionName', 128),
      ...timeRange(e, where),
      isHasWeb: bool(e, 'isHasWeb'),
      isHasMobile: bool(e, 'isHasMobile'),
    };
  });
  const devices = list<LicenceDeviceLimit>(o, 'devices', 100, (e, where) => {
    exactKeys(e, deviceKeys, where);
    return {
      deviceName: str(e, 'deviceName', 128),
      count: int(e, 'count', licenceLimits.unlimitedDevices, 10_000_000),
      ...timeRange(e, where),
      remarks: str(e, 'remarks', 256, undefined, true),
    };
  });
  return {
    format: 1,
    code: str(o, 'code', 64, licenceCodePattern),
    customerNo: str(o, 'customerNo', 8, customerNoPattern),
    customerName: str(o, 'customerName', 128),
    prdPkgCategory: str(o, 'prdPkgCategory', 64),
    isFormal: bool(o, 'isFormal'),
    ...timeRange(o, 'the licence'),
    empCount: int(o, 'empCount', 1, licenceLimits.unlimitedEmployees),
    isHasMobile: bool(o, 'isHasMobile'),
    isPermitOpenapi: bool(o, 'isPermitOpenapi'),
    isLimitDevice: bool(o, 'isLimitDevice'),
    infos,
    devices,
    issuedAt: int(o, 'issuedAt', 0, 253_402_300_799_999),
  };
}

// ---- keys and signing (vendor side) ----

export function ed25519PublicKey(base64Spki: string): KeyObject {
  const key = createPublicKey({ key: Buffer.from(base64Spki, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new LicenceFormatError('the key is not an Ed25519 public key');
  return key;
}

export function sm2PublicKey(hex: string): string {
  if (!isSm2PublicKey(hex)) throw new LicenceFormatError('the key is not an SM2 public key (04 followed by 128 hex digits)');
  return hex.toLowerCase();
}

export function trustedKey(alg: LicenceAlgorithm, publicKey: string): TrustedKey {
  return { alg, key: alg === 'Ed25519' ? ed25519PublicKey(publicKey) : sm2PublicKey(publicKey) };
}

/** A new key pair: the private half for the vendor's signing key file, the public half for trust files. */
export function generateKeyPair(alg: LicenceAlgorithm): { privateKey: string; publicKey: string } {
  if (alg === 'SM2') {
    const pair = sm2.generateKeyPairHex();
    return { privateKey: pair.privateKey, publicKey: pair.publicKey };
  }
  const pair = generateKeyPairSync('ed25519');
  return {
    privateKey: pair.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: pair.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

/** The signature (base64 of 64 bytes) of `bytes` with a signing key. */
export function signBytes(bytes: Uint8Array, key: SigningKey): string {
  if (key.alg === 'Ed25519') {
    const privateKey = createPrivateKey({ key: Buffer.from(key.privateKey, 'base64'), format: 'der', type: 'pkcs8' });
    return edSign(null, bytes, privateKey).toString('base64');
  }
  return Buffer.from(sm2.doSignature(new Uint8Array(bytes), key.privateKey, sm2Options), 'hex').toString('base64');
}

/** A signed `.lic` file's text for a payload (checked first, so the CLI cannot issue what the server refuses). */
export function issueLicenceFile(payload: LicencePayload, key: SigningKey): string {
  const payloadBytes = Buffer.from(JSON.stringify(payload), 'utf8');
  readPayload(payloadBytes);
  const file: LicenceFile = { alg: key.alg, kid: key.kid, payload: payloadBytes.toString('base64'), signature: signBytes(payloadBytes, key) };
  return `${JSON.stringify(file, null, 2)}\n`;
}

import { createCipheriv, createDecipheriv, createHash, createHmac, pbkdf2Sync } from 'node:crypto';

/** National cryptography through Node's own OpenSSL: SM3 hashes and HMACs, SM4 block cipher (128-bit key). */

export function sm3(data: Uint8Array | string): Buffer {
  return createHash('sm3').update(data).digest();
}

/** The lowercase hex SM3 digest of a UTF-8 text: what the browser sends for a password in national-crypto mode. */
export function sm3Hex(text: string): string {
  return createHash('sm3').update(text, 'utf8').digest('hex');
}

export function hmacSm3(key: Uint8Array, ...parts: (Uint8Array | string)[]): Buffer {
  const mac = createHmac('sm3', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** PBKDF2 with HMAC-SM3. */
export function pbkdf2Sm3(password: string, salt: Uint8Array, iterations: number, length: number): Buffer {
  return pbkdf2Sync(password, salt, iterations, length, 'sm3');
}

function check(key: Uint8Array, what: string): void {
  if (key.length !== 16) throw new RangeError(`${what} must be 16 bytes (SM4-128), got ${key.length}`);
}

/** SM4-CBC with PKCS#7 padding. */
export function sm4CbcEncrypt(key: Uint8Array, iv: Uint8Array, plain: Uint8Array): Buffer {
  check(key, 'an SM4 key');
  const cipher = createCipheriv('sm4-cbc', key, iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]);
}

export function sm4CbcDecrypt(key: Uint8Array, iv: Uint8Array, sealed: Uint8Array): Buffer {
  check(key, 'an SM4 key');
  const decipher = createDecipheriv('sm4-cbc', key, iv);
  return Buffer.concat([decipher.update(sealed), decipher.final()]);
}

/** One SM4 block (16 bytes) under `key`, no padding: seals a 16-byte key. */
export function sm4EncryptBlock(key: Uint8Array, block: Uint8Array): Buffer {
  check(key, 'an SM4 key');
  check(block, 'an SM4 block');
  const cipher = createCipheriv('sm4-ecb', key, null).setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

export function sm4DecryptBlock(key: Uint8Array, block: Uint8Array): Buffer {
  check(key, 'an SM4 key');
  check(block, 'an SM4 block');
  const decipher = createDecipheriv('sm4-ecb', key, null).setAutoPadding(false);
  return Buffer.concat([decipher.update(block), decipher.final()]);
}

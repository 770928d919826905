import { describe, expect, it } from 'vitest';
import { sm2 } from 'sm-crypto-v2';
import { sealPassword } from './password-seal.ts';

// Runs in jsdom like the dialog that uses it: doEncrypt is given a string, so no Uint8Array of another
// realm reaches sm-crypto-v2 (the trap crypto.test.ts avoids with the node environment).
const keys = sm2.generateKeyPairHex();

describe('sealPassword', () => {
  it('decrypts back to the password with the private key (C1C3C2)', async () => {
    for (const password of ['abc12345', 'Abc#2026 x', '密碼Passw0rd', 'a'.repeat(20)]) {
      const sealed = await sealPassword(password, keys.publicKey);
      expect(sm2.doDecrypt(sealed, keys.privateKey, 1)).toBe(password);
    }
  });

  it('is hex: C1 (64 bytes, no 04 prefix), C3 (32 bytes), then C2 as long as the UTF-8 password', async () => {
    const sealed = await sealPassword('密碼abc', keys.publicKey);
    expect(sealed).toMatch(/^[0-9a-f]+$/);
    expect(sealed).toHaveLength(128 + 64 + 2 * new TextEncoder().encode('密碼abc').length);
  });

  it('is C1C3C2, not C1C2C3', async () => {
    const sealed = await sealPassword('abc12345', keys.publicKey);
    // a failed integrity check (C3) yields an empty string
    expect(sm2.doDecrypt(sealed, keys.privateKey, 0)).toBe('');
  });

  it('differs on every call (a fresh ephemeral key)', async () => {
    expect(await sealPassword('abc12345', keys.publicKey)).not.toBe(await sealPassword('abc12345', keys.publicKey));
  });

  it('only the matching private key opens it', async () => {
    const other = sm2.generateKeyPairHex();
    const sealed = await sealPassword('abc12345', keys.publicKey);
    expect(sm2.doDecrypt(sealed, other.privateKey, 1)).toBe('');
  });

  it('rejects a key that is not a point of the curve', async () => {
    await expect(sealPassword('abc12345', '04' + '00'.repeat(64))).rejects.toThrow();
    await expect(sealPassword('abc12345', '')).rejects.toThrow();
  });
});

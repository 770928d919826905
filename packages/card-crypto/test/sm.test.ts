import { describe, expect, it } from 'vitest';
import { hmacSm3, sm3, sm4CbcDecrypt, sm4CbcEncrypt, sm4DecryptBlock, sm4EncryptBlock } from '../src/sm.ts';

const hex = (h: string) => Buffer.from(h, 'hex');

describe('SM3 and SM4 (known answers of GB/T 32905 and GB/T 32907)', () => {
  it('SM3', () => {
    expect(sm3('abc').toString('hex')).toBe('66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0');
    expect(sm3('abcd'.repeat(16)).toString('hex')).toBe('debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732');
  });

  it('SM4, one block each way', () => {
    const key = hex('0123456789abcdeffedcba9876543210');
    expect(sm4EncryptBlock(key, key).toString('hex')).toBe('681edf34d206965e86b3e94f536e4246');
    expect(sm4DecryptBlock(key, hex('681edf34d206965e86b3e94f536e4246')).toString('hex')).toBe('0123456789abcdeffedcba9876543210');
  });

  it('SM4-CBC round trip; HMAC-SM3 is 32 bytes and keyed', () => {
    const key = Buffer.alloc(16, 1);
    const iv = Buffer.alloc(16, 2);
    const sealed = sm4CbcEncrypt(key, iv, Buffer.from('operator 7'));
    expect(sealed.length).toBe(16);
    expect(sm4CbcDecrypt(key, iv, sealed).toString()).toBe('operator 7');
    expect(hmacSm3(key, 'x')).toHaveLength(32);
    expect(hmacSm3(key, 'x').equals(hmacSm3(Buffer.alloc(16, 3), 'x'))).toBe(false);
    expect(() => sm4EncryptBlock(Buffer.alloc(15), Buffer.alloc(16))).toThrow(/16 bytes/);
  });
});

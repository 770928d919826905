// @vitest-environment node
// (jsdom hands out Uint8Arrays of another realm, which sm-crypto-v2 rejects; browsers have one realm)
import { describe, expect, it, vi } from 'vitest';
import { base64Utf8, passwordDigest, randomId } from './crypto.ts';

describe('passwordDigest', () => {
  it('SHA-256 of "abc"', async () => {
    expect(await passwordDigest('abc', 'sha256')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('gives the same SHA-256 without crypto.subtle (plain-http intranet hosts)', async () => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    try {
      expect(globalThis.crypto.subtle).toBeUndefined();
      expect(await passwordDigest('abc', 'sha256')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    } finally {
      vi.unstubAllGlobals();
    }
  });
  it('SM3 of "abc"', async () => {
    expect(await passwordDigest('abc', 'sm3')).toBe('66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0');
  });
  it('SM3 of "abcd" x 16', async () => {
    expect(await passwordDigest('abcd'.repeat(16), 'sm3')).toBe('debe9ff92275b8a138604889c18e5a4d6fdb70e5387e5765293dcba39c0c5732');
  });
  it('hashes the UTF-8 bytes of non-ASCII passwords', async () => {
    // SHA-256 of the UTF-8 bytes e5 af 86 e7 a0 81 ("密码")
    const digest = await passwordDigest('密码', 'sha256');
    const expected = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('密码'))))
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(digest).toBe(expected);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('base64Utf8', () => {
  it('encodes the UTF-8 bytes', () => {
    expect(base64Utf8('abc')).toBe('YWJj');
    expect(base64Utf8('密码')).toBe('5a+G56CB');
  });
});

describe('randomId', () => {
  it('falls back to getRandomValues when randomUUID is missing (plain-http origins)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(array: T) => real.getRandomValues(array) });
    try {
      const id = randomId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(randomId()).not.toBe(id);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(globalThis.crypto).toBe(real);
  });
});

import type { DigestMode } from '@campus/contracts';

function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * The password digest the server expects: lowercase hex SHA-256, or SM3 on gate (national-crypto)
 * deployments, of the UTF-8 bytes of the password. The hash libraries load on first use, so the
 * login page's first load stays small.
 */
export async function passwordDigest(password: string, mode: DigestMode): Promise<string> {
  const bytes = utf8(password);
  if (mode === 'sm3') {
    const { sm3 } = await import('sm-crypto-v2');
    // sm3 on a Uint8Array hashes the bytes; a string would be read as text of its own choosing
    return sm3(bytes).toLowerCase();
  }
  // the browser's own SHA-256 where it offers one (secure origins: https, localhost); else a JS one
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    try {
      return toHex(new Uint8Array(await subtle.digest('SHA-256', bytes)));
    } catch {
      // fall through to the JS implementation
    }
  }
  const { sha256 } = await import('@noble/hashes/sha2.js');
  return toHex(sha256(bytes));
}

/** LDAP sends the password itself, as base64 of its UTF-8 bytes. */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of utf8(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A random id (transID, verifyKey, guid): crypto.randomUUID where available (secure origins), else getRandomValues. */
export function randomId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

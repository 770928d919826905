import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';

/** The encodings of the copies the build writes beside a file (scripts/compress-assets.mjs), best first. */
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** Accept-Encoding values read lately: a browser sends the same one with every call. */
const readLately = new Map<string, ReadonlySet<string>>();
const readLatelyLimit = 32;

/** The encodings the client accepts (q=0 refuses one): the one reading of Accept-Encoding on this server. */
export function acceptedEncodings(request: FastifyRequest): ReadonlySet<string> {
  const header = request.headers['accept-encoding'];
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const known = readLately.get(value);
  if (known) return known;
  const names = new Set<string>();
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
  if (readLately.size >= readLatelyLimit) readLately.clear();
  readLately.set(value, names);
  return names;
}

/**
 * The precompressed copy of `file` this request may take (brotli first, then gzip), or null for the file
 * itself. Always answer with `Vary: Accept-Encoding` when a copy exists, whichever is sent.
 */
export async function compressedCopy(request: FastifyRequest, file: string): Promise<{ path: string; encoding: string; size: number } | 'none' | null> {
  const ok = acceptedEncodings(request);
  let exists = false;
  for (const encoding of encodings) {
    const copy = `${file}${encoding.suffix}`;
    const stat = await fs.promises.stat(copy).catch(() => null);
    if (!stat?.isFile()) continue;
    exists = true;
    if (ok.has(encoding.name)) return { path: copy, encoding: encoding.name, size: stat.size };
  }
  return exists ? 'none' : null;
}

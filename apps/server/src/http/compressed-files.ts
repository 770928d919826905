import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';

/** The encodings of the copies the build writes beside a file (scripts/compress-assets.mjs), best first. */
const encodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The encodings the client accepts (q=0 refuses one): the one reading of Accept-Encoding on this server. */
export function acceptedEncodings(request: FastifyRequest): Set<string> {
  const header = request.headers['accept-encoding'];
  const names = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) names.add(name);
  }
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

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** JSON replies at least this long are compressed; smaller ones gain less than compressing costs. */
export const compressJsonFrom = 1024;

function preferred(request: FastifyRequest): 'br' | 'gzip' | null {
  const header = String(request.headers['accept-encoding'] ?? '').toLowerCase();
  const offers = header.split(',').map((part) => {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { name: name.trim(), refused: q !== undefined && Number(q.slice(2)) === 0 };
  });
  const takes = (name: string) => offers.some((o) => o.name === name && !o.refused);
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return null;
}

/**
 * Compresses JSON replies of 1 KiB and more (menus, lists) by Accept-Encoding, brotli at a fast level or gzip.
 * Files are not touched here: the build writes their compressed copies (scripts/compress-assets.mjs).
 */
export function registerJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || Buffer.byteLength(payload) < compressJsonFrom) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json') || reply.hasHeader('content-encoding')) return payload;
    reply.header('vary', 'Accept-Encoding');
    const encoding = preferred(request);
    if (encoding === null) return payload;
    const compressed =
      encoding === 'br'
        ? brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
        : gzipSync(payload, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}

import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptedEncodings } from './compressed-files.ts';

/** JSON replies at least this long are compressed; smaller ones gain less than compressing costs. */
export const compressJsonFrom = 1024;

function preferred(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = acceptedEncodings(request);
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
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

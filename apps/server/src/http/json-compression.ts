import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncodings } from './compressed-files.ts';

/** JSON replies at least this long are compressed; smaller ones gain less than compressing costs. */
export const compressJsonFrom = 1024;

/**
 * The compressed copies of replies sent lately. Many replies repeat byte for byte (a menu is the same for every
 * user with the same grants, sendShared sends it as one string): those are compressed once. Bounded in entries
 * and in the size of a reply kept, so replies that never repeat cost one insertion each and little memory.
 */
const recentReplies = new Map<string, { br?: Buffer; gzip?: Buffer }>();
const recentRepliesLimit = 64;
const recentReplyMaxLength = 64 * 1024;

function compress(payload: string, encoding: 'br' | 'gzip'): Buffer {
  const keep = payload.length <= recentReplyMaxLength;
  const known = keep ? recentReplies.get(payload) : undefined;
  const cached = known?.[encoding];
  if (cached) return cached;
  const compressed =
    encoding === 'br' ? brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(payload, { level: 6 });
  if (keep) {
    if (known) known[encoding] = compressed;
    else {
      if (recentReplies.size >= recentRepliesLimit) recentReplies.delete(recentReplies.keys().next().value as string);
      recentReplies.set(payload, { [encoding]: compressed });
    }
  }
  return compressed;
}

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
  // a callback, not a promise: it runs on every reply
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, compressed(request, reply, payload));
  });
}

function compressed(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  // a string is at most 3 bytes a character: only a long one needs its bytes counted
  if (typeof payload !== 'string' || payload.length * 3 < compressJsonFrom || (payload.length < compressJsonFrom && Buffer.byteLength(payload) < compressJsonFrom)) return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json') || reply.hasHeader('content-encoding')) return payload;
  reply.header('vary', 'Accept-Encoding');
  const encoding = preferred(request);
  if (encoding === null) return payload;
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return compress(payload, encoding);
}

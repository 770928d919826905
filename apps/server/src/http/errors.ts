import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { isDatabaseUnavailable, isStorageFull } from '../db/unavailable.ts';
import { countDatabaseError } from '../lib/metrics.ts';
import { createRepeatFilter } from '../lib/repeat-filter.ts';
import type { StorageWatch } from '../lib/storage-watch.ts';
import { AppError, InvalidRequest, sendFailure } from './envelope.ts';

/** Identical errors are logged once a minute at most (a database that went away fails every request alike). */
const repeats = createRepeatFilter(60_000);

/** How long a caller told the database is unavailable is asked to wait before trying again. */
const retryAfterSeconds = '5';

interface HttpLikeError {
  statusCode?: number;
  validation?: unknown;
  validationContext?: string;
  message?: string;
  code?: string;
}

/**
 * The one error handler: business failures → their code; schema violations → HTTP 400 naming the field;
 * rate limits → 429; the database unreachable or its connection lost → 503 serviceUnavailable (db/unavailable.ts);
 * anything else → 500 internalError. Never a stack trace; every failure that is not the caller's is logged.
 */
export function errorHandler(error: FastifyError | AppError | unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return sendFailure(request, reply, error);
  const e = (typeof error === 'object' && error !== null ? error : {}) as HttpLikeError;
  if (e.validation) return sendFailure(request, reply, new InvalidRequest(e.message ?? ''));
  if (e.statusCode === 429) {
    return sendFailure(request, reply, new AppError(codes.tooManyRequests, { status: 429 }));
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors: bad JSON, wrong content type, body too large, …
    const status = e.statusCode;
    const code = status === 404 ? codes.notFound : status === 403 ? codes.noPermission : codes.badRequest;
    return sendFailure(request, reply, code === codes.badRequest ? new InvalidRequest(e.message ?? '', { status }) : new AppError(code, { status }));
  }
  if (isStorageFull(error)) {
    countDatabaseError('storage_full');
    // a file's path, or (null) the database, which the watch names: the SQLite file or the PostgreSQL database
    const where = typeof (error as { path?: unknown }).path === 'string' ? String((error as { path: string }).path) : null;
    // logged once (with where), not once per request, until the storage takes writes again
    (request.server as { storageWatch?: StorageWatch }).storageWatch?.reportFull(where);
    return sendFailure(request, reply, new AppError(codes.storageFull, { status: 507 }));
  }
  if (isDatabaseUnavailable(error)) {
    countDatabaseError('unavailable');
    logOnceAWindow(request, error, 'database unavailable: answered 503');
    return sendFailure(request, reply, new AppError(codes.serviceUnavailable, { status: 503, headers: { 'retry-after': retryAfterSeconds } }));
  }
  logOnceAWindow(request, error, 'unhandled error');
  return sendFailure(request, reply, new AppError(codes.internalError, { status: 500 }));
}

/** The first of identical errors (same code and message) in a window is logged; the next logged one says how many were left out. */
function logOnceAWindow(request: FastifyRequest, error: unknown, what: string): void {
  const e = (typeof error === 'object' && error !== null ? error : {}) as HttpLikeError;
  const { log, repeated } = repeats.admit(`${what}|${e.code ?? ''}|${e.message ?? String(error)}`);
  if (!log) return;
  if (repeated > 0) request.log.error({ err: error, repeated }, `${what} (repeated ${repeated} times since last logged)`);
  else request.log.error({ err: error }, what);
}

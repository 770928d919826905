import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError, InvalidRequest, sendFailure } from './envelope.ts';

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
    return sendFailure(request, reply, new AppError(codes.tooManyRequests, 429));
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors: bad JSON, wrong content type, body too large, …
    const status = e.statusCode;
    const code = status === 404 ? codes.notFound : status === 403 ? codes.noPermission : codes.badRequest;
    return sendFailure(request, reply, code === codes.badRequest ? new InvalidRequest(e.message ?? '', status) : new AppError(code, status));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.error({ err: error }, 'database unavailable: answered 503');
    return sendFailure(request, reply, new AppError(codes.serviceUnavailable, 503, null, {}, null, { 'retry-after': retryAfterSeconds }));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendFailure(request, reply, new AppError(codes.internalError, 500));
}

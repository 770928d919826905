import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codes } from '@campus/contracts';
import { AppError, InvalidRequest, sendFailure } from './envelope.ts';

interface HttpLikeError {
  statusCode?: number;
  validation?: unknown;
  validationContext?: string;
  message?: string;
  code?: string;
}

/**
 * The one error handler: business failures → their code; schema violations → HTTP 400 naming the field;
 * rate limits → 429; anything else → 500 internalError. Never a stack trace.
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
  request.log.error({ err: error }, 'unhandled error');
  return sendFailure(request, reply, new AppError(codes.internalError, 500));
}

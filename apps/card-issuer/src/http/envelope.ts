import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { codeMessage, codes, toLanguage } from '@campus/contracts';
import type { BusinessCode, Envelope, LanguageCode, Localised } from '@campus/contracts';
import { ReaderError } from '../readers/card-reader.ts';
import { RelayedFailure } from './relayed-failure.ts';

/** A failure that is not the reader's: bad input (101), refused origin (131), unknown path (141); why, when it helps. */
export class IssuerError extends Error {
  readonly httpStatus: number;
  readonly detail: string | Localised | null;

  constructor(
    readonly code: BusinessCode,
    { status, detail = null }: { status: number; detail?: string | Localised | null },
  ) {
    super(detail === null ? `code ${code}` : typeof detail === 'string' ? detail : detail['en-US']);
    this.name = 'IssuerError';
    this.httpStatus = status;
    this.detail = detail;
  }
}

export function languageOf(request: FastifyRequest): LanguageCode {
  const header = request.headers.language;
  return toLanguage(Array.isArray(header) ? header[0] : header);
}

export function ok<T>(request: FastifyRequest, data: T): Envelope<T> {
  return { code: codes.ok, msg: codeMessage(codes.ok, languageOf(request)), data };
}

function send(reply: FastifyReply, status: number, body: Envelope): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

/**
 * The one error handler of the issuer: a reader code as the envelope's code (HTTP 200, spec §4 and §8), bad
 * input as HTTP 400 naming the field, refusals with their code. Never a stack trace, never card bytes.
 */
export function issuerErrorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request);
  if (error instanceof ReaderError) return send(reply, 200, { code: error.code, msg: error.messageIn(language), data: null });
  if (error instanceof RelayedFailure) return send(reply, 200, error.envelope);
  if (error instanceof IssuerError) {
    const base = codeMessage(error.code, language);
    const detail = typeof error.detail === 'string' ? error.detail : error.detail?.[language];
    return send(reply, error.httpStatus, { code: error.code, msg: detail ? `${base}: ${detail}` : base, data: null });
  }
  const e = error as FastifyError;
  if (e.validation || (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500)) {
    const status = e.statusCode && e.statusCode !== 404 ? e.statusCode : 400;
    return send(reply, status, { code: codes.badRequest, msg: `${codeMessage(codes.badRequest, language)}: ${e.message}`, data: null });
  }
  request.log.error({ err: { message: error.message, name: error.name } }, 'unhandled error');
  return send(reply, 500, { code: codes.internalError, msg: codeMessage(codes.internalError, language), data: null });
}

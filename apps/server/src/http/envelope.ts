import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { codeMessage, codes, unfilledPlaceholders } from '@campus/contracts';
import type { BusinessCode, Envelope, LanguageCode, MessageValue } from '@campus/contracts';

/** What an AppError carries besides its code; each has its default when left out. */
export interface AppErrorOptions {
  /** The HTTP status of the reply: 200 unless told. */
  status?: number;
  /** The envelope's data: null unless told. */
  data?: unknown;
  /** Values for the `{name}` placeholders of the localised message (every one of them: see sendFailure). */
  values?: Record<string, MessageValue>;
  /** A message that replaces the catalogue's (already localised or naming a field). */
  detail?: string | null;
  /** Response headers that go with the failure (Retry-After of a 429). */
  headers?: Record<string, string>;
}

/** A failure a service reports: becomes an envelope with a non-zero code (HTTP 200 unless told). */
export class AppError extends Error {
  readonly httpStatus: number;
  readonly data: unknown;
  readonly values: Record<string, MessageValue>;
  readonly detail: string | null;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: BusinessCode,
    options: AppErrorOptions = {},
  ) {
    super(`business code ${code}`);
    this.name = 'AppError';
    this.httpStatus = options.status ?? 200;
    this.data = options.data ?? null;
    this.values = options.values ?? {};
    this.detail = options.detail ?? null;
    this.headers = options.headers ?? {};
  }

  /** The envelope's msg in the caller's language. */
  messageIn(language: LanguageCode): string {
    return this.detail ?? codeMessage(this.code, language, this.values);
  }

  /** The placeholders of the catalogue's message this failure leaves unfilled (none when it brings its own message). */
  unfilled(): string[] {
    return this.detail === null ? unfilledPlaceholders(this.code, this.values) : [];
  }
}

/**
 * badRequest (HTTP 400 unless told) naming what is wrong with the request, e.g. `body/ids must name exactly
 * one card`: the message is the caller's language's, the problem follows it as the schema's own words do.
 */
export class InvalidRequest extends AppError {
  constructor(
    readonly problem: string,
    { status = 400 }: { status?: number } = {},
  ) {
    super(codes.badRequest, { status });
  }

  override messageIn(language: LanguageCode): string {
    return `${codeMessage(codes.badRequest, language)}: ${this.problem}`;
  }

  override unfilled(): string[] {
    return [];
  }
}

export function ok<T>(request: FastifyRequest, data: T, recordCount?: number): Envelope<T> {
  const body: Envelope<T> = { code: codes.ok, msg: codeMessage(codes.ok, request.lang), data };
  if (recordCount !== undefined) body.recordCount = recordCount;
  return body;
}

/** The success replies of shared data, serialized once per language: see sendShared. */
const sharedReplies = new WeakMap<object, Map<LanguageCode, string>>();

/**
 * Sends the success envelope of `data`, an object built once and shared by many callers without change (a menu
 * for one set of grants): its JSON is made once per language and the same string is sent every time, so it is
 * neither serialized again nor, by json-compression, compressed again.
 */
export function sendShared(request: FastifyRequest, reply: FastifyReply, data: object): FastifyReply {
  let byLanguage = sharedReplies.get(data);
  if (!byLanguage) {
    byLanguage = new Map();
    sharedReplies.set(data, byLanguage);
  }
  let json = byLanguage.get(request.lang);
  if (json === undefined) {
    json = JSON.stringify(ok(request, data));
    byLanguage.set(request.lang, json);
  }
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * Under NODE_ENV=test a failure whose message would keep a `{name}` placeholder is refused (HTTP 500, the message
 * naming the code and the placeholder), so that every test reaching such a throw fails; elsewhere it is logged.
 */
const refuseUnfilledMessages = process.env.NODE_ENV === 'test';

/** Sends a failure envelope. Bypasses the route's reply schema (which describes success data). */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const unfilled = error.unfilled();
  if (unfilled.length > 0) {
    const problem = `business code ${error.code} was sent without a value for ${unfilled.map((name) => `{${name}}`).join(', ')}`;
    request.log.error({ code: error.code, unfilled }, problem);
    if (refuseUnfilledMessages) return sendFailure(request, reply, new AppError(codes.internalError, { status: 500, detail: problem }));
  }
  const body: Envelope = { code: error.code, msg: error.messageIn(request.lang), data: error.data ?? null };
  return reply.code(error.httpStatus).headers(error.headers).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

/**
 * What a business failure answered with HTTP 200 carries: null, or what the caller may do next (the sign-in
 * and password checks: a captcha, the tries left, the end of a lock).
 */
export const FailureData = Type.Union([
  Type.Null(),
  Type.Object(
    {
      captchaRequired: Type.Optional(Type.Boolean()),
      lockingTime: Type.Optional(Type.Integer({ description: 'Epoch ms when the lock ends' })),
      remainingAttempts: Type.Optional(Type.Integer()),
      retryAfter: Type.Optional(Type.Integer({ description: 'Seconds this address must wait (signInThrottled, HTTP 429)' })),
    },
    { additionalProperties: false },
  ),
]);

/**
 * Reply schema of HTTP 200: the success envelope carrying `data`, or a business failure, which is answered with
 * HTTP 200 too (code names it, data is FailureData). Failures are sent past the serializer (sendFailure), so
 * the serializer only ever writes the first member; the union costs it one schema check of each success.
 */
export function envelope<T extends TSchema>(data: T) {
  return Type.Union([
    Type.Object({
      code: Type.Integer({ description: '0 on success; see the business code table' }),
      msg: Type.String(),
      data,
      recordCount: Type.Optional(Type.Integer()),
    }),
    Type.Object(
      { code: Type.Integer({ description: 'The failure; see the business code table' }), msg: Type.String({ description: "In the caller's language" }), data: FailureData },
      { description: 'A business failure answered with HTTP 200' },
    ),
  ]);
}

const failureEnvelope = Type.Object(
  { code: Type.Integer(), msg: Type.String(), data: Type.Unknown() },
  { description: 'Failure envelope: code names the failure, msg is localised' },
);

/** The failure replies every route may give, for the OpenAPI document. */
export const failureReplies = {
  400: failureEnvelope,
  401: failureEnvelope,
  403: failureEnvelope,
  404: failureEnvelope,
  429: failureEnvelope,
  500: failureEnvelope,
  503: failureEnvelope,
} as const;

/** The `language` request header, documented on every route. */
export const languageHeaders = Type.Object({
  language: Type.Optional(Type.String({ maxLength: 16, description: 'zh-CN (default), zh-MO or en-US' })),
});

export const tokenHeaders = Type.Object({
  language: Type.Optional(Type.String({ maxLength: 16, description: 'zh-CN (default), zh-MO or en-US' })),
  token: Type.Optional(Type.String({ maxLength: 256, description: 'Session token from a sign-in' })),
});

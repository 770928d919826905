import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import * as Schema from 'typebox/schema';
import { codeMessages, isSuccessCode } from '@campus/contracts';
import type { BusinessCode, LanguageCode } from '@campus/contracts';
import type { RegisteredRoute } from '../../src/http/types.ts';
import type { JsonSchema } from './schema-arbitraries.ts';

/**
 * What the fuzz test asks of every reply, whatever was sent:
 * - a status below 500;
 * - a failure (4xx) is the envelope {code, msg, data} with a failure code, never a bare text or HTML page
 *   (a page path that no route takes may answer the shell's page, 404);
 * - msg is the catalogue message of the code in the caller's language (a detail may follow it);
 * - a reply the route describes for its status matches that description;
 * - no stack trace, source location, internal path or JavaScript/database error text.
 */
export type ProblemKind = 'status5xx' | 'notEnvelope' | 'language' | 'schema' | 'leak';

export interface Problem {
  kind: ProblemKind;
  detail: string;
}

export interface SeenReply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  rawPayload: Buffer;
}

export interface ReplyContext {
  route: RegisteredRoute;
  method: string;
  language: LanguageCode;
  /** Folders whose names must never reach a client (the repository, the data folder). */
  internalPaths: readonly string[];
}

const header = (reply: SeenReply, name: string) => String(reply.headers[name] ?? '');

function decoded(reply: SeenReply): Buffer {
  switch (header(reply, 'content-encoding')) {
    case 'gzip':
      return gunzipSync(reply.rawPayload);
    case 'br':
      return brotliDecompressSync(reply.rawPayload);
    case 'deflate':
      return inflateSync(reply.rawPayload);
    default:
      return reply.rawPayload;
  }
}

const leakPatterns: [RegExp, string][] = [
  [/\n\s+at\s/, 'a stack trace'],
  [/\bat\s+\S+\s+\(\S+:\d+:\d+\)/, 'a stack frame'],
  [/\.(?:ts|mts|js|mjs|cjs):\d+/, 'a source location'],
  [/node_modules/, 'node_modules'],
  [/\b(?:Error|TypeError|RangeError|SyntaxError|ReferenceError|AggregateError|SqliteError|DatabaseError):\s/, 'a JavaScript error'],
  [/SQLITE_[A-Z]+|syntax error at or near|duplicate key value|violates (?:not-null|unique|foreign key|check) constraint|invalid byte sequence/i, 'a database error'],
];

export function leaksIn(text: string, internalPaths: readonly string[]): string[] {
  const found = leakPatterns.filter(([pattern]) => pattern.test(text)).map(([, what]) => what);
  for (const folder of internalPaths) if (folder.length > 1 && text.includes(folder)) found.push(`the internal path ${folder}`);
  return found;
}

/** The catalogue message of `code` in `language` as a pattern: placeholders match anything, a detail may follow. */
function messagePattern(code: number, language: LanguageCode): RegExp | null {
  const messages = codeMessages[code as BusinessCode] as (typeof codeMessages)[BusinessCode] | undefined;
  if (!messages) return null;
  const template = messages[language].replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}/g, '[\\s\\S]*');
  return new RegExp(`^${template}`);
}

function responseSchemaFor(route: RegisteredRoute, status: number): JsonSchema | undefined {
  const response = (route.schema?.response ?? {}) as Record<string, JsonSchema>;
  return response[String(status)] ?? response[`${String(status)[0]}xx`] ?? response.default;
}

const isEnvelopeSchema = (schema: JsonSchema | undefined) => schema?.properties?.code !== undefined && schema.properties.msg !== undefined;

export function problemsOf(reply: SeenReply, context: ReplyContext): Problem[] {
  const problems: Problem[] = [];
  if (reply.status >= 500) problems.push({ kind: 'status5xx', detail: `HTTP ${reply.status}` });
  if (context.method === 'HEAD' || reply.status === 204 || reply.status === 304) return problems;

  const type = header(reply, 'content-type');
  const isJson = type.startsWith('application/json');
  const isFailure = reply.status >= 400;
  let text: string;
  try {
    text = decoded(reply).toString('utf8');
  } catch {
    return [...problems, { kind: 'notEnvelope', detail: `a body that does not decode as ${header(reply, 'content-encoding')}` }];
  }
  // a file or a page is the route's content; a failure and any JSON are the server speaking
  if (isJson || isFailure) {
    for (const leak of leaksIn(text, context.internalPaths)) problems.push({ kind: 'leak', detail: `${leak} in: ${text.slice(0, 300)}` });
  }
  if (!isJson) {
    const shellPage = reply.status === 404 && context.method === 'GET' && /^text\/(plain|html)/.test(type);
    if (isFailure && !shellPage) problems.push({ kind: 'notEnvelope', detail: `HTTP ${reply.status} ${type}: ${text.slice(0, 200)}` });
    return problems;
  }

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, { kind: 'notEnvelope', detail: `JSON that does not parse: ${text.slice(0, 200)}` }];
  }
  const schema = responseSchemaFor(context.route, reply.status);
  if (isFailure || isEnvelopeSchema(schema)) problems.push(...envelopeProblems(body, reply.status, context.language));
  if (schema && !Schema.Check(schema, body)) {
    const [, errors] = Schema.Errors(schema, body);
    const first = errors[0];
    problems.push({ kind: 'schema', detail: `${first ? `${first.instancePath || '/'} ${first.message}` : 'does not match'}: ${text.slice(0, 300)}` });
  }
  return problems;
}

function envelopeProblems(body: unknown, status: number, language: LanguageCode): Problem[] {
  const envelope = body as { code?: unknown; msg?: unknown } | null;
  if (envelope === null || typeof envelope !== 'object' || !Number.isInteger(envelope.code) || typeof envelope.msg !== 'string' || !('data' in envelope)) {
    return [{ kind: 'notEnvelope', detail: JSON.stringify(body).slice(0, 200) }];
  }
  const code = envelope.code as number;
  const problems: Problem[] = [];
  if (status >= 400 && isSuccessCode(code)) problems.push({ kind: 'notEnvelope', detail: `HTTP ${status} with the success code ${code}` });
  const pattern = messagePattern(code, language);
  if (pattern === null) problems.push({ kind: 'notEnvelope', detail: `code ${code} is in no catalogue` });
  else if (!pattern.test(envelope.msg)) problems.push({ kind: 'language', detail: `code ${code}: "${envelope.msg.slice(0, 200)}" is not the ${language} message "${codeMessages[code as BusinessCode][language]}"` });
  return problems;
}

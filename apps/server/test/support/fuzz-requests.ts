import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { languageCodes } from '@campus/contracts';
import { repoRoot } from '../../src/config.ts';
import type { RegisteredRoute } from '../../src/http/types.ts';
import { attackTexts, hostileText, hostileValue } from './hostile-values.ts';
import { withKnownValues } from './known-values.ts';
import type { KnownValues } from './known-values.ts';
import { arbitraryFor } from './schema-arbitraries.ts';
import type { Flavour, JsonSchema } from './schema-arbitraries.ts';

/**
 * Requests for one route, built from its own schemas (params, querystring, headers, body): what the fuzz test
 * sends through `app.inject`. The session token is not part of a request: the test adds the caller's.
 */
export interface FuzzRequest {
  flavour: Flavour;
  method: 'GET' | 'HEAD' | 'POST';
  /** Path and query string, as sent. */
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress: string;
}

interface RouteSchema {
  params?: JsonSchema;
  querystring?: JsonSchema;
  headers?: JsonSchema;
  body?: JsonSchema;
  'x-upload'?: { field: string; maxFiles: number };
}

/** Every request a client could send to `route`; valid and boundary ones name `known` values now and then. */
export function requestsFor(route: RegisteredRoute, known: KnownValues = new Map()): fc.Arbitrary<FuzzRequest> {
  // built once per flavour: building an arbitrary (stringMatching compiles its pattern) costs far more than drawing from it
  return fc.oneof(
    { arbitrary: requestOfFlavour(route, 'valid', known), weight: 2 },
    { arbitrary: requestOfFlavour(route, 'boundary', known), weight: 2 },
    { arbitrary: requestOfFlavour(route, 'hostile', known), weight: 3 },
  );
}

/** The schema's values of a flavour; valid and boundary ones with some fields of `known` values. */
function valuesOf(schema: JsonSchema, flavour: Flavour, known: KnownValues): fc.Arbitrary<unknown> {
  const values = arbitraryFor(schema, flavour);
  if (flavour === 'hostile') return values;
  return fc.tuple(values, fc.array(fc.nat(), { minLength: 16, maxLength: 16 })).map(([value, picks]) => withKnownValues(value, known, picks));
}

function requestOfFlavour(route: RegisteredRoute, flavour: Flavour, known: KnownValues): fc.Arbitrary<FuzzRequest> {
  const schema = (route.schema ?? {}) as RouteSchema;
  const method = route.method === 'GET' ? fc.oneof({ arbitrary: fc.constant<'GET'>('GET'), weight: 5 }, { arbitrary: fc.constant<'HEAD'>('HEAD'), weight: 1 }) : fc.constant(route.method as 'POST');
  return fc
    .record({
      method,
      path: pathFor(route.url, schema.params, flavour),
      query: queryFor(schema.querystring, flavour, known),
      headers: headersFor(schema.headers, flavour),
      body: route.method === 'POST' ? bodyFor(schema, flavour, known) : fc.constant(noBody),
      remoteAddress: fc.oneof(fc.ipV4(), fc.constantFrom('127.0.0.2', '::1', '::ffff:10.1.2.3')),
    })
    .map(({ method, path: urlPath, query, headers, body, remoteAddress }) => ({
      flavour,
      method,
      url: query === '' ? urlPath : `${urlPath}?${query}`,
      headers: { ...headers, ...body.headers },
      ...(body.payload !== undefined ? { payload: body.payload } : {}),
      remoteAddress,
    }));
}

// ---------------------------------------------------------------- path

/** Percent-encoded UTF-8, a lone surrogate as U+FFFD (encodeURIComponent throws for one). */
function encoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** A path segment as a client may send it: encoded, or raw when it is an attack on the path itself. */
function segment(schema: JsonSchema | undefined, flavour: Flavour): fc.Arbitrary<string> {
  const value = arbitraryFor(schema ?? { type: 'string' }, flavour).map((v) => encoded(typeof v === 'string' ? v : JSON.stringify(v) ?? ''));
  if (flavour !== 'hostile') return value;
  const raw = fc.constantFrom('..', '.', '%2e%2e', '..%2f..%2f', '%00', '%zz', '%c0%ae', 'a%2Fb', '~', ';', 'x;y=1', '..\\..', '%252e');
  return fc.oneof(value, raw);
}

function pathFor(url: string, params: JsonSchema | undefined, flavour: Flavour): fc.Arbitrary<string> {
  const parts = url.split('/');
  const arbitraries = parts.map((part) => {
    if (part.startsWith(':')) return segment(params?.properties?.[part.slice(1)], flavour);
    if (part === '*') return wildcardPath(flavour);
    return fc.constant(part);
  });
  return fc.tuple(...arbitraries).map((pieces) => pieces.join('/'));
}

/** What follows a folder route (`/subapps/*`): files, folders and traversal attempts. */
function wildcardPath(flavour: Flavour): fc.Arbitrary<string> {
  const name = fc.stringMatching(/^[a-z0-9-]{1,12}(\.(html|js|css|json|png|map|txt))?$/);
  const plain = fc.array(name, { minLength: 0, maxLength: 4 }).map((names) => names.join('/'));
  if (flavour === 'valid') return fc.oneof(plain, fc.constantFrom('qy/', 'qy/index.html', 'tc/', 'index.html', ''));
  const traversal = fc.constantFrom('../../../../etc/passwd', 'qy/../../package.json', '%2e%2e/%2e%2e/etc/passwd', 'qy/%2e%2e%2f%2e%2e%2fpackage.json', '..%5c..%5cpackage.json', 'qy/%00.html', 'qy/index.html%00', '/etc/passwd', '//etc/passwd', 'qy\\..\\..\\package.json', 'qy/%zz', 'a'.repeat(3000), 'qy/./././index.html', 'qy//index.html', '%E4%B8%AD/%F0%9F%98%80');
  return fc.oneof(plain, traversal, fc.array(fc.constantFrom('..', '.', '%2e', 'qy', ''), { maxLength: 8 }).map((p) => p.join('/')));
}

// ---------------------------------------------------------------- query string

function queryFor(schema: JsonSchema | undefined, flavour: Flavour, known: KnownValues): fc.Arbitrary<string> {
  const fromSchema = schema ? valuesOf(schema, flavour, known).map(toQuery) : fc.constant('');
  if (flavour !== 'hostile') return fromSchema;
  // what a form encoder never writes: broken escapes, repeated and bracketed keys, a lone key
  const junk = fc.constantFrom('a=%zz', '__proto__[admin]=1', 'constructor[prototype][x]=1', 'account=a&account=b', '=', '&&&', 'x', 'a[]=1&a[]=2', `q=${'%41'.repeat(3000)}`);
  return fc.tuple(fromSchema, fc.option(junk, { nil: undefined })).map(([query, extra]) => [query, extra].filter((part) => part !== undefined && part !== '').join('&'));
}

/** A generated value as a query string: keys of an object (arrays repeated), anything else as `value=`. */
function toQuery(value: unknown): string {
  const params = new URLSearchParams();
  const add = (key: string, v: unknown) => params.append(key, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (Array.isArray(v)) for (const item of v) add(key, item);
      else if (v !== undefined) add(key, v);
    }
  } else {
    add('value', value);
  }
  return params.toString();
}

// ---------------------------------------------------------------- headers

/** A header value a real client can send: no CR, LF, NUL or characters past Latin-1. */
function headerSafe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.replace(/[^\x20-\x7e\x80-\xff]/g, '').slice(0, 8_000);
}

function headersFor(schema: JsonSchema | undefined, flavour: Flavour): fc.Arbitrary<Record<string, string>> {
  const languages = fc.constantFrom(...languageCodes);
  const language: fc.Arbitrary<string | null> =
    flavour === 'hostile'
      ? fc.oneof({ arbitrary: languages, weight: 3 }, { arbitrary: fc.option<string>(fc.oneof(hostileText.map(headerSafe), fc.constantFrom('EN-us', 'en', 'zh', 'zh-TW', 'zh-CN, en-US'))), weight: 1 })
      : languages;
  const own: Record<string, fc.Arbitrary<string | null>> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (name === 'language' || name === 'token') continue;
    own[name] = fc.option(arbitraryFor(property, flavour).map(headerSafe));
  }
  const accept = fc.constantFrom(null, 'application/json', '*/*', 'text/html', 'application/json, text/plain, */*', 'image/png');
  const acceptEncoding = fc.constantFrom(null, null, 'gzip', 'br', 'gzip, deflate, br', 'identity', 'x-unknown');
  const extra =
    flavour === 'hostile'
      ? fc.dictionary(fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'if-none-match', 'cookie', 'range', 'origin', 'referer', 'x-http-method-override', 'transfer-encoding-x'), hostileText.map(headerSafe), { maxKeys: 2 })
      : fc.constant<Record<string, string>>({});
  return fc.record({ language, own: fc.record(own), accept, acceptEncoding, extra }).map(({ language: lang, own: values, accept: acc, acceptEncoding: enc, extra: more }) => {
    const headers: Record<string, string> = { ...more };
    if (lang !== null) headers.language = lang;
    if (acc !== null) headers.accept = acc;
    if (enc !== null) headers['accept-encoding'] = enc;
    for (const [name, value] of Object.entries(values)) if (value !== null) headers[name] = value;
    return headers;
  });
}

// ---------------------------------------------------------------- body

interface Body {
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const noBody: Body = { headers: {} };
const json = (text: string): Body => ({ headers: { 'content-type': 'application/json' }, payload: text });

/** JSON that does not parse, bodies of other types, a JSON body past the 1 MiB limit. */
const brokenBodies = fc.constantFrom<Body>(
  json(''),
  json('{'),
  json('{"a":1,}'),
  json("{'a':1}"),
  json('[1,2'),
  json('nul'),
  json('"\\ud800"'),
  json('{"a":1}{"b":2}'),
  json(`{"a":"${'x'.repeat(1_100_000)}"}`),
  json('1e99999'),
  json(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
  json(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`),
  { headers: { 'content-type': 'text/plain' }, payload: 'hello' },
  { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=2' },
  { headers: { 'content-type': 'application/xml' }, payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' },
  { headers: { 'content-type': 'multipart/form-data' }, payload: '--x\r\n' },
  { headers: { 'content-type': 'application/json; charset=latin1' }, payload: '{}' },
  { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{}' },
  { headers: {}, payload: '{"a":1}' },
);

function bodyFor(schema: RouteSchema, flavour: Flavour, known: KnownValues): fc.Arbitrary<Body> {
  if (schema['x-upload']) return uploadBodies(schema['x-upload'], flavour);
  const value = schema.body ? valuesOf(schema.body, flavour, known) : flavour === 'hostile' ? hostileValue : fc.constant(undefined);
  const body = value.map((v): Body => (v === undefined ? noBody : json(JSON.stringify(v))));
  if (flavour !== 'hostile') return body;
  return fc.oneof({ arbitrary: body, weight: 3 }, { arbitrary: brokenBodies, weight: 1 });
}

// ---------------------------------------------------------------- multipart uploads

const exampleLicence = fs.readFileSync(path.join(repoRoot, 'docs', 'licences', 'expired-example.lic'));

interface Part {
  field: string;
  fileName: string | null;
  content: Buffer;
}

function multipart(parts: Part[], boundary: string, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.fileName === null ? '' : `; filename="${part.fileName}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n`, 'latin1'), part.content, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Multipart bodies for an upload route: its files, other fields, too many or too large files, broken framing. */
function uploadBodies(upload: { field: string; maxFiles: number }, flavour: Flavour): fc.Arbitrary<Body> {
  const goodName = fc.stringMatching(/^[a-z0-9-]{1,12}\.lic$/);
  const badName = fc.oneof(hostileText.map((t) => t.replace(/["\r\n]/g, '')), fc.constantFrom('../../etc/passwd.lic', 'a.lic\u0000.png', 'C:\\x\\y.lic', 'x'.repeat(500) + '.lic'));
  const content = fc.oneof(
    fc.constant(exampleLicence),
    fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom(...attackTexts).map((t) => Buffer.from(t)),
    fc.constant(Buffer.alloc(0)),
  );
  const hostile = flavour === 'hostile';
  const part = fc.record({
    field: hostile ? fc.oneof(fc.constant(upload.field), fc.constantFrom('file', 'files[]', '', '__proto__')) : fc.constant(upload.field),
    fileName: hostile ? fc.oneof(goodName, badName, fc.constant(null)) : goodName,
    content: hostile ? fc.oneof(content, fc.constant(Buffer.alloc(3 * 1024 * 1024, 0x41))) : content,
  });
  const count = flavour === 'boundary' ? fc.constantFrom(0, 1, upload.maxFiles, upload.maxFiles + 1) : fc.integer({ min: 1, max: 3 });
  return fc.tuple(count, part, fc.array(part, { maxLength: 2 }), fc.boolean()).map(([n, first, others, close]): Body => {
    const parts = Array.from({ length: n }, (_, i) => others[i % Math.max(others.length, 1)] ?? first);
    const boundary = 'fuzz-boundary-7d1';
    return {
      headers: { 'content-type': hostile && !close ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}` },
      payload: multipart(parts, boundary, !hostile || close),
    };
  });
}

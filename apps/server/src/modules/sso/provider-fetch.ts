import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import zlib from 'node:zlib';
import { codes } from '@campus/contracts';
import { AppError } from '../../http/envelope.ts';
import { addressKind, providerNetworksSetting } from '../../lib/outbound-addresses.ts';
import type { ProviderNetworkPolicy } from '../../lib/outbound-addresses.ts';

// The one way this server reaches a tenant's identity provider (issue 49, docs/sso.md "Providers on your intranet"):
// a fetch for the OIDC and CAS clients that resolves the host itself, checks EVERY address the name resolves to
// against the operator's policy (lib/outbound-addresses.ts), and connects to an address it checked (node:https with
// a lookup that hands back only those), so a name cannot resolve to a public address for the check and to
// 127.0.0.1 for the connection. It never follows a redirect: a 3xx is answered as it came (both clients ask for
// redirect 'manual' and treat one as a failure). Plain http goes only to loopback addresses.

/** A connection the policy refuses. Its message says "refused by policy" and never which address was refused. */
export class ProviderAddressRefused extends Error {
  constructor() {
    super(`the provider's address is refused by policy (${providerNetworksSetting})`);
    this.name = 'ProviderAddressRefused';
  }
}

export function isAddressRefused(error: unknown): boolean {
  return error instanceof ProviderAddressRefused || (error instanceof Error && error.cause instanceof ProviderAddressRefused);
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (tests hand in their own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The most of one answer read: discovery documents, key sets and CAS answers are a few KB. */
const defaultMaxBytes = 1024 * 1024;

export interface ProviderFetchDeps {
  policy: ProviderNetworkPolicy;
  resolve?: Resolve;
  maxBytes?: number;
}

/** The addresses a URL's host resolves to, each allowed by the policy; ProviderAddressRefused when any is not. */
export async function checkedAddresses(url: URL, policy: ProviderNetworkPolicy, resolve: Resolve = systemResolve): Promise<ResolvedAddress[]> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(hostname);
  const addresses = family !== 0 ? [{ address: hostname, family }] : await resolve(hostname);
  if (addresses.length === 0) throw new TypeError(`no address for ${hostname}`);
  if (addresses.some((one) => !policy.allows(hostname, one.address))) throw new ProviderAddressRefused();
  // a ticket or a token never crosses a network in clear: http only to this machine
  if (url.protocol === 'http:' && addresses.some((one) => addressKind(one.address) !== 'loopback')) throw new ProviderAddressRefused();
  return addresses;
}

/**
 * Save and "test connection": the provider's address as the policy sees it now. A name that does not resolve yet is
 * let through (the provider may not be in the DNS yet); the connection itself is checked again every time.
 */
export async function checkProviderUrl(value: string, field: string, policy: ProviderNetworkPolicy, resolve: Resolve = systemResolve): Promise<void> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return;
  }
  try {
    await withTimeout(checkedAddresses(url, policy, resolve), 3000);
  } catch (error) {
    if (isAddressRefused(error)) throw addressRefusedError(field);
  }
}

/** ssoProviderAddressRefused naming the field (in the message and as data.field, for the form) and the setting. */
export function addressRefusedError(field: string): AppError {
  return new AppError(codes.ssoProviderAddressRefused, { status: 400, data: { field }, values: { field, setting: providerNetworksSetting } });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function requestBody(body: RequestInit['body'], headers: Headers): Buffer | null {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return Buffer.from(body.toString(), 'utf8');
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('the provider fetch sends only text, form or byte bodies');
}

/** Counts the bytes of an answer: past `max`, the stream fails. */
function sizeLimit(max: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.byteLength;
      if (size > max) done(new Error(`the answer is larger than ${max} bytes`));
      else done(null, chunk);
    },
  });
}

function decoder(encoding: string): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** A fetch that reaches only addresses the policy allows (see the top of this file). */
export function providerFetch(deps: ProviderFetchDeps): typeof fetch {
  const resolve = deps.resolve ?? systemResolve;
  const maxBytes = deps.maxBytes ?? defaultMaxBytes;
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : String(input));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`the provider fetch does not speak ${url.protocol}`);
    const signal = init.signal ?? request?.signal ?? null;
    signal?.throwIfAborted();
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers ?? request?.headers);
    const body = requestBody(init.body ?? null, headers);
    if (body) headers.set('content-length', String(body.byteLength));

    const aborted = new Promise<never>((_resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    let addresses: ResolvedAddress[];
    try {
      addresses = await Promise.race([checkedAddresses(url, deps.policy, resolve), aborted]);
    } catch (error) {
      if (error === signal?.reason) throw error;
      throw new TypeError('fetch failed', { cause: error });
    }
    // the connection goes to the addresses checked above, never to a second answer of the DNS
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };

    return new Promise<Response>((resolvePromise, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      const outgoing = transport.request(url, { method, headers: Object.fromEntries(headers), lookup: pinned, agent: false }, (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status < 200 || status > 599) {
          incoming.destroy();
          reject(new TypeError(`the provider answered HTTP status ${status}`));
          return;
        }
        const answerHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) answerHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
        const noBody = method === 'HEAD' || status === 204 || status === 205 || status === 304;
        let stream: Readable = incoming;
        const decode = decoder((incoming.headers['content-encoding'] ?? '').trim().toLowerCase());
        if (decode) {
          answerHeaders.delete('content-encoding');
          answerHeaders.delete('content-length');
          stream = stream.pipe(decode);
          incoming.on('error', (error) => decode.destroy(error));
        }
        const limit = sizeLimit(maxBytes);
        stream.on('error', (error) => limit.destroy(error));
        stream = stream.pipe(limit);
        if (noBody) incoming.resume();
        const webBody = noBody ? null : (Readable.toWeb(stream) as NodeReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>);
        resolvePromise(new Response(webBody, { status, statusText: incoming.statusMessage ?? '', headers: answerHeaders }));
      });
      const onAbort = () => {
        outgoing.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      outgoing.on('close', () => signal?.removeEventListener('abort', onAbort));
      outgoing.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      outgoing.end(body ?? undefined);
    });
  };
}

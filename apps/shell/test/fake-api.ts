import { apiPaths } from '@campus/contracts';
import { http, type HttpCall, type Transport } from '../src/lib/request.ts';
import { keyChallenge } from './fake-issuer.ts';

/** One call the fake server saw: its path, method and body (JSON parsed; FormData as sent). */
export interface SeenCall {
  url: string;
  method: string;
  body: unknown;
  config: HttpCall;
}

/** What a route answers: an envelope's data (code 0), or a whole envelope, or an HTTP failure (with a body when given). */
export type FakeAnswer = { data: unknown } | { envelope: { code: number; msg: string; data: unknown; recordCount?: number } } | { status: number; body?: unknown };

export type FakeRoutes = Record<string, (call: SeenCall) => FakeAnswer | Promise<FakeAnswer>>;

/** What every fake server answers unless told otherwise: the key challenge each key fetch starts with. */
const defaultRoutes: FakeRoutes = {
  [apiPaths.getSysKeyChallenge]: () => ({ data: { challenge: keyChallenge, expiresIn: 60 } }),
};

/**
 * Installs a fake transport on the shell's request layer: each path answers through its handler (or a default
 * route), anything else answers 404. Returns the list of calls seen, in order.
 */
export function installFakeApi(given: FakeRoutes): SeenCall[] {
  const routes = { ...defaultRoutes, ...given };
  const seen: SeenCall[] = [];
  const transport: Transport = async (config) => {
    const url = config.url;
    const body = typeof config.data === 'string' ? (JSON.parse(config.data) as unknown) : config.data;
    const call: SeenCall = { url, method: config.method.toUpperCase(), body, config };
    seen.push(call);
    const handler = routes[url];
    const answer: FakeAnswer = handler ? await handler(call) : { status: 404 };
    if ('status' in answer) return { status: answer.status, data: answer.body ?? null };
    const data = 'envelope' in answer ? answer.envelope : { code: 0, msg: 'ok', data: answer.data };
    return { status: 200, data };
  };
  http.transport = transport;
  return seen;
}

import type { Envelope, LanguageCode } from '@campus/contracts';
import { codes, isSuccessCode, requestTimeoutMs, signOutCodes, silentSignOutCodes } from '@campus/contracts';
import * as storage from './storage.ts';
import { randomId } from './crypto.ts';
import { currentLanguage, i18n } from './i18n.ts';
import { errorWithMessage, isPublicPath, loginPath, notLoginPath } from './paths.ts';
import { viewerTime } from './time-format.ts';

/** Per-call options of the request layer. */
export interface RequestOptions {
  /** Send the master-card token instead of the access token (the set-up calls). */
  useMasterToken?: boolean;
  /**
   * A card management call (spec §6): the master-card token when there is one, else the access token of a
   * signed-in system administrator. A 401 forgets the token that was refused, without the sign-out redirect:
   * the card screens send the operator to swipe the mother card.
   */
  cardManager?: boolean;
  /** Resolve with the whole envelope, also on a failed code (card-management and device-list calls). */
  raw?: boolean;
  /** No envelope at all: static JSON such as /tools/tools.json. */
  plain?: boolean;
  /** The language header for this call when it is not the current one (menus fetched ahead of a switch). */
  language?: LanguageCode;
  /** Resolve with `{data, recordCount}` instead of `data` (paged calls); failures reject as usual. */
  counted?: boolean;
  /** The caller shows a refusal on its own page (the login form): no message pops up besides. */
  quiet?: boolean;
  /**
   * The call itself signs in (the landing's ticket exchange, issue 49): a 401 is its own refusal, answered to the
   * caller with the server's code and message; no session ends and no redirect follows.
   */
  signsIn?: boolean;
}

/** A successful call of a paged list: its data and the total the server counted. */
export interface CountedResult<T> {
  data: T;
  recordCount?: number;
}

/** One HTTP call as the transport sends it: the query apart from the path, the body already serialised. */
export interface HttpCall {
  method: 'get' | 'post';
  url: string;
  params?: Record<string, unknown>;
  headers: Headers;
  data?: string | FormData;
}

/** What came back: any status (the request layer decides what a status means) and the body, JSON-parsed when it is JSON. */
export interface HttpAnswer {
  status: number;
  data: unknown;
}

/** Sends one call; rejects only when no answer came (network failure, timeout). Tests put a fake in its place. */
export type Transport = (call: HttpCall) => Promise<HttpAnswer>;

/** A rejected call: the business code (or HTTP status as `status`) and the server's data. */
export class RequestError extends Error {
  readonly code: number | null;
  readonly status: number | null;
  readonly data: unknown;
  constructor(message: string, init: { code?: number | null; status?: number | null; data?: unknown }) {
    super(message);
    this.name = 'RequestError';
    this.code = init.code ?? null;
    this.status = init.status ?? null;
    this.data = init.data;
  }
}

export type Navigate = (to: string) => unknown;
export interface Notifier {
  error: (text: string) => void;
}

// The app registers these at start (router.navigate and antd's message); tests register fakes.
let navigateImpl: Navigate = (to) => {
  window.location.assign(to);
};
let notifierImpl: Notifier = { error: () => {} };
let currentPathImpl = (): string => window.location.pathname;
let passwordChangeRequiredImpl: (reason: string) => void = () => {};

export function registerNavigate(fn: Navigate): void {
  navigateImpl = fn;
}
export function registerNotifier(notifier: Notifier): void {
  notifierImpl = notifier;
}
/** Shows an error through the registered notifier (pages use it for their own texts). */
export function notifyError(text: string): void {
  notifierImpl.error(text);
}
/**
 * Told when the server refuses a call because this session must change its password first (code 191): the
 * account feature makes sure the forced Change Password dialog is open. `reason` is the server's text.
 */
export function registerPasswordChangeRequired(fn: (reason: string) => void): void {
  passwordChangeRequiredImpl = fn;
}
export function registerCurrentPath(fn: () => string): void {
  currentPathImpl = fn;
}

// Only one 401 redirect at a time.
let unauthorisedRedirectPending = false;

/** For tests: forget a pending 401 redirect. */
export function resetRequestState(): void {
  unauthorisedRedirectPending = false;
}

async function redirect(to: string): Promise<void> {
  await navigateImpl(to);
}

function handleUnauthorised(): void {
  storage.clearSession({ keepMasterCardToken: true });
  const path = currentPathImpl();
  // a page that needs no sign-in (the card screens, /error, /tools) stays where it is once the stale token is gone
  const needsSignIn = path === notLoginPath || !(path === loginPath || isPublicPath(path));
  if (!needsSignIn || unauthorisedRedirectPending) return;
  unauthorisedRedirectPending = true;
  const target = path === notLoginPath ? errorWithMessage(i18n.t('request.tokenInvalid')) : loginPath;
  void redirect(target).finally(() => {
    unauthorisedRedirectPending = false;
  });
}

function signOut(msg: string | null): void {
  storage.clearSession();
  if (msg) notifierImpl.error(msg);
  if (currentPathImpl() !== loginPath) void redirect(loginPath);
}

/** The token a call sends: the access token, or the master-card token of the set-up and card management calls. */
function tokenFor(options: RequestOptions): string | null {
  if (options.cardManager) return storage.masterCardToken.get() ?? storage.accessToken.get();
  return options.useMasterToken ? storage.masterCardToken.get() : storage.accessToken.get();
}

/**
 * A card call's token was refused (401): the master-card token is forgotten when it was the one sent, else (a card
 * management call with the access token) the session has ended; a signed-in session is not touched by a refused
 * master-card token.
 */
function forgetRefusedCardToken(options: RequestOptions): void {
  if (options.useMasterToken || storage.masterCardToken.get()) storage.masterCardToken.set(null);
  else storage.clearSession();
}

function headersFor(options: RequestOptions, body: HttpCall['data']): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  // a FormData body gets its multipart type and boundary from the browser
  if (typeof body === 'string') headers.set('Content-Type', 'application/json');
  const token = tokenFor(options);
  if (token) headers.set('token', token);
  const tenant = storage.tenantCode.get();
  if (tenant) headers.set('tenantCode', tenant);
  headers.set('language', options.language ?? currentLanguage());
  headers.set('transID', randomId());
  return headers;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

/** Applies the envelope rules of §7/§8 to a 2xx answer; returns what the caller receives. */
function onEnvelope(body: unknown, options: RequestOptions): unknown {
  if (options.plain) return body;
  if (!isEnvelope(body)) {
    const text = i18n.t('request.internalError');
    notifierImpl.error(text);
    throw new RequestError(text, { data: body });
  }
  if (isSuccessCode(body.code)) {
    if (options.raw) return body;
    return options.counted ? { data: body.data, recordCount: body.recordCount } : body.data;
  }
  if (signOutCodes.includes(body.code)) {
    signOut(silentSignOutCodes.includes(body.code) ? null : body.msg || i18n.t('request.internalError'));
    throw new RequestError(body.msg, { code: body.code, data: body.data });
  }
  if (options.raw) return body;
  const text = failureText(body);
  if (!options.quiet) notifierImpl.error(text);
  throw new RequestError(text, { code: body.code, data: body.data });
}

/**
 * The text of a failed call: the server's message, but the end of a lock-out on the viewer's clock, named
 * (the server answers every caller alike, in UTC; lib/time-format.ts says which clock).
 */
function failureText(body: Envelope): string {
  const lockingTime = (body.data as { lockingTime?: unknown } | null)?.lockingTime;
  if (body.code === codes.accountLocked && typeof lockingTime === 'number') {
    return i18n.t('request.lockedUntil', { time: viewerTime(lockingTime, currentLanguage(), 'mediumDateMinute', { withZone: true }) });
  }
  return body.msg || i18n.t('request.internalError');
}

/** A call that got no 2xx answer: an HTTP status with its body, or none at all (status null) when nothing came back. */
class HttpFailure {
  constructor(
    readonly status: number | null,
    readonly data: unknown,
    readonly message: string,
  ) {}
}

/**
 * What a call refused for the forced password change answers its caller: nothing, ever. The session is waiting for
 * the change (spec §4), which the forced dialog asks for and which ends the session (as Quit does), so the page
 * behind the dialog keeps waiting instead of showing a failure nobody can mend there. Issue 48, item 14.
 */
function waitForThePasswordChange(): Promise<never> {
  return new Promise<never>(() => {});
}

function isPasswordChangeRefusal(failure: HttpFailure): boolean {
  return failure.status === 403 && isEnvelope(failure.data) && failure.data.code === codes.passwordChangeRequired;
}

function onHttpError(failure: HttpFailure, options: RequestOptions): unknown {
  const { status, data } = failure;
  if (isPasswordChangeRefusal(failure)) {
    passwordChangeRequiredImpl(isEnvelope(data) ? data.msg : '');
    return waitForThePasswordChange();
  }
  if (status === 401 && (options.useMasterToken || options.cardManager)) {
    // the master-card token expired or was never there: the card screens send the operator to swipe the
    // mother card again
    forgetRefusedCardToken(options);
  } else if (status === 401 && !options.signsIn) {
    handleUnauthorised();
  } else if (status === 403) {
    // a refusal of the server's rules (no valid licence) says why; raw callers decide themselves
    if (options.raw && isEnvelope(data)) return data;
    if (!options.quiet) notifierImpl.error(isEnvelope(data) && data.msg ? data.msg : i18n.t('request.noPermission'));
  } else if (status === 429 && isEnvelope(data) && data.msg) {
    // too many tries: the server says how long to wait
    if (options.raw) return data;
    if (!options.quiet) notifierImpl.error(data.msg);
  }
  // 400, 404, 408, 5xx and network failures: rejected silently, callers show their own text
  // an envelope's code, message and data as for a failed business code; anything else as it came
  if (isEnvelope(data)) throw new RequestError(data.msg, { status, code: data.code, data: data.data });
  throw new RequestError(failure.message, { status, data });
}

function urlWithParams(url: string, params: HttpCall['params']): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    // a list as the name repeated, which the server reads back as an array
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item === undefined || item === null) continue;
      query.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item as string | number | boolean));
    }
  }
  const text = query.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The browser's fetch, same origin, with the 30 s limit of §7. */
export const fetchTransport: Transport = async (call) => {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), requestTimeoutMs);
  try {
    const response = await fetch(urlWithParams(call.url, call.params), {
      method: call.method.toUpperCase(),
      headers: call.headers,
      body: call.data,
      credentials: 'same-origin',
      signal: abort.signal,
    });
    return { status: response.status, data: parseBody(await response.text()) };
  } finally {
    clearTimeout(timer);
  }
};

/** The shell's one way out to the server; `transport` is replaced by tests. */
export const http: { transport: Transport } = { transport: fetchTransport };

interface CallInit {
  method: HttpCall['method'];
  url: string;
  params?: HttpCall['params'];
  /** A JSON value, or a FormData sent as multipart. */
  data?: unknown;
}

async function send<T>(init: CallInit, options: RequestOptions): Promise<T> {
  const data = init.data === undefined || init.data instanceof FormData ? init.data : JSON.stringify(init.data);
  const call: HttpCall = { method: init.method, url: init.url, params: init.params, headers: headersFor(options, data), data };
  let answer: HttpAnswer;
  try {
    answer = await http.transport(call);
  } catch (error) {
    const message = error instanceof Error && error.name !== 'AbortError' ? error.message : 'request timed out';
    return onHttpError(new HttpFailure(null, undefined, message), options) as T;
  }
  if (answer.status < 200 || answer.status >= 300) {
    return onHttpError(new HttpFailure(answer.status, answer.data, `Request failed with status code ${answer.status}`), options) as T;
  }
  return onEnvelope(answer.data, options) as T;
}

export function apiGet<T>(url: string, params?: Record<string, unknown>, options: RequestOptions = {}): Promise<T> {
  return send<T>({ method: 'get', url, params }, options);
}

export function apiPost<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<T> {
  return send<T>({ method: 'post', url, data: data ?? {} }, options);
}

/** POST of a multipart form (file uploads); the browser writes the boundary into the content type. */
export function apiPostForm<T>(url: string, form: FormData, options: RequestOptions = {}): Promise<T> {
  return send<T>({ method: 'post', url, data: form }, options);
}

/** POST that resolves with the whole envelope, also on a failed code (calls whose answer nobody waits for). */
export function apiPostRaw<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> {
  return send<Envelope<T>>({ method: 'post', url, data: data ?? {} }, { ...options, raw: true });
}

/** GET that resolves with the whole envelope, also on a failed code (quiet background calls). */
export function apiGetRaw<T>(url: string, params?: Record<string, unknown>, options: RequestOptions = {}): Promise<Envelope<T>> {
  return send<Envelope<T>>({ method: 'get', url, params }, { ...options, raw: true });
}

/** GET that resolves with the data and the recordCount of a paged list. */
export function apiGetCounted<T>(url: string, params?: Record<string, unknown>): Promise<CountedResult<T>> {
  return send<CountedResult<T>>({ method: 'get', url, params }, { counted: true });
}

/** POST that resolves with the data and the recordCount of a paged list. */
export function apiPostCounted<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<CountedResult<T>> {
  return send<CountedResult<T>>({ method: 'post', url, data: data ?? {} }, { ...options, counted: true });
}

/** GET of static JSON without an envelope. */
export function plainGet<T>(url: string): Promise<T> {
  return send<T>({ method: 'get', url }, { plain: true });
}

/**
 * POST for a caller that shows what went wrong itself, where it happened (the card dialogs, card management, the
 * backup log): the whole successful envelope (its data and recordCount); a failed code, also one the server refused
 * with 403 or 429, rejects with the server's text as a RequestError of that code, and nothing pops up.
 */
export async function apiPostReply<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> {
  const reply = await apiPostRaw<T>(url, data, options);
  if (isSuccessCode(reply.code)) return reply;
  throw new RequestError(failureText(reply), { code: reply.code, data: reply.data });
}

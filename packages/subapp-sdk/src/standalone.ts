import type { ShellApi, ShellApiResult, ShellBroadcast, ShellLanguage, ShellProps, ShellUserInfo } from './shared-state.ts';
import type { GlobalStateCallback, SubAppLifecycles, SubAppMountProps } from './lifecycles.ts';
import { ShellRequestError } from './api-error.ts';
import { isShellLanguage, toShellLanguage } from './language.ts';
import { browserUtcDiff } from './time.ts';

declare global {
  interface Window {
    /** Set by qiankun on the sandbox window before a sub-app's scripts run. */
    __POWERED_BY_QIANKUN__?: boolean;
  }
}

/** True when qiankun (the shell) runs this code; false when the sub-app's page is opened on its own. */
export function isInsideShell(): boolean {
  return typeof window !== 'undefined' && Boolean(window.__POWERED_BY_QIANKUN__);
}

/**
 * localStorage keys read in standalone mode (development only). They are the shell's own keys, so a sub-app
 * page opened on the same origin as a signed-in shell uses that session.
 */
export const standaloneStorageKeys = {
  token: 'campus.token',
  tenantCode: 'campus.tenantCode',
  language: 'campus.language',
} as const;

/**
 * Standalone language switch: `window.dispatchEvent(new CustomEvent(standaloneLanguageEvent, {detail: {language:
 * 'en-US'}}))`, or `setStandaloneLanguage('en-US')`. Inside the shell the broadcast does this instead.
 */
export const standaloneLanguageEvent = 'campus-subapp:language';

export interface StandaloneLanguageDetail {
  language: ShellLanguage;
}

export function setStandaloneLanguage(language: ShellLanguage): void {
  window.dispatchEvent(new CustomEvent<StandaloneLanguageDetail>(standaloneLanguageEvent, { detail: { language } }));
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage disabled: the switch still applies to this page view
  }
}

/** The standalone language: the shell's stored choice, else the browser's. */
export function standaloneLanguage(): ShellLanguage {
  const stored = readStorage(standaloneStorageKeys.language);
  if (isShellLanguage(stored)) return stored;
  return toShellLanguage(typeof navigator === 'undefined' ? null : navigator.language);
}

type Query = Record<string, string | number | boolean | undefined>;

interface EnvelopeLike {
  code: number;
  msg?: string;
  data?: unknown;
  recordCount?: number;
}

function isEnvelope(value: unknown): value is EnvelopeLike {
  return typeof value === 'object' && value !== null && typeof (value as EnvelopeLike).code === 'number';
}

export interface DevApiOptions {
  /** The language header of each call. */
  language: () => ShellLanguage;
  /** For tests; default the global fetch. */
  fetch?: typeof fetch;
}

/**
 * A ShellApi for standalone development: same-origin fetch with the `token`, `tenantCode` and `language` headers
 * (token and tenant from the shell's localStorage keys), the envelope rules (success when code % 10 === 0), and
 * rejections of the ShellApiError shape. No 401 redirect, no notifications: the shell's layer does those.
 */
export function createDevApi(options: DevApiOptions): ShellApi {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));

  async function call<T>(method: 'GET' | 'POST', path: string, query: Query | undefined, body: unknown): Promise<ShellApiResult<T>> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
    const search = params.toString();
    const url = search ? `${path}${path.includes('?') ? '&' : '?'}${search}` : path;
    const headers: Record<string, string> = { Accept: 'application/json', language: options.language() };
    const token = readStorage(standaloneStorageKeys.token);
    if (token) headers.token = token;
    const tenantCode = readStorage(standaloneStorageKeys.tenantCode);
    if (tenantCode) headers.tenantCode = tenantCode;
    if (method === 'POST') headers['Content-Type'] = 'application/json';

    let response: Response;
    try {
      response = await fetchImpl(url, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    } catch (error) {
      throw new ShellRequestError(error instanceof Error ? error.message : 'network failure');
    }
    let payload: unknown = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    const envelope = isEnvelope(payload) ? payload : null;
    if (!response.ok) {
      throw new ShellRequestError(envelope?.msg || `HTTP ${response.status}`, { status: response.status, code: envelope?.code ?? null, data: envelope?.data });
    }
    if (!envelope) throw new ShellRequestError('the answer is not an envelope', { data: payload });
    if (envelope.code % 10 !== 0) throw new ShellRequestError(envelope.msg || `code ${envelope.code}`, { code: envelope.code, data: envelope.data });
    const result: ShellApiResult<T> = { data: envelope.data as T };
    if (typeof envelope.recordCount === 'number') result.recordCount = envelope.recordCount;
    return result;
  }

  return {
    get: <T>(path: string, query?: Query) => call<T>('GET', path, query, undefined),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, undefined, body),
  };
}

/** Opens a path the way the shell does: history.pushState, then popstate (single-spa fires it on every change). */
function pushPath(path: string): void {
  window.history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
}

/** Development props: user "Developer", the browser's clock, same-origin api. */
export function createDevProps(language: () => ShellLanguage, overrides: Partial<ShellProps> = {}, fetchImpl?: typeof fetch): ShellProps {
  const tenantCode = readStorage(standaloneStorageKeys.tenantCode) ?? '1001';
  return {
    userInfo: {
      id: 'developer',
      code: 'developer',
      name: 'Developer',
      loginTime: Date.now(),
      isSystemAdmin: true,
      tenantCode,
      tenantName: 'Development',
    },
    globalConfig: {
      tenantCode,
      mjSystem: 0,
      isPrivateDeployment: false,
      systemName: 'Campus (standalone)',
      skin: 'DASUI001',
      utcDiff: browserUtcDiff(),
      shellVersion: 'standalone',
      permissions: {},
    },
    routers: [],
    language: language(),
    logoUrl: '',
    changePwd: () => {
      console.info('[campus sub-app] standalone: the shell would open its Change Password dialog here');
    },
    navigate: (_app, path) => {
      pushPath(path);
      return true;
    },
    api: createDevApi({ language, fetch: fetchImpl }),
    basePath: '/',
    reportFailure: (error) => {
      console.error('[campus sub-app] standalone: the shell would show its "failed" page with Retry here', error);
    },
    ...overrides,
  };
}

/** The shell's call for the signed-in user (spec §7), which standalone mode asks when the page has a session. */
export const standaloneUserPath = '/qy/api/User/GetDetailByToken';

/**
 * The user of the shell's session on this address (signed in at /login of the dev server, which passes the shell's
 * paths on): the page then shows who is really signed in. null without a session, or when the call fails.
 */
async function signedInUser(api: ShellApi): Promise<ShellUserInfo | null> {
  if (!readStorage(standaloneStorageKeys.token)) {
    console.info('[campus sub-app] standalone: no session here; sign in to the shell at /login on this address to run as a real user');
    return null;
  }
  try {
    const { data } = await api.get<Partial<ShellUserInfo>>(standaloneUserPath);
    if (typeof data?.name !== 'string' || typeof data.id !== 'string') return null;
    return {
      id: data.id,
      code: String(data.code ?? ''),
      name: data.name,
      loginTime: Number(data.loginTime ?? 0),
      isSystemAdmin: data.isSystemAdmin === true,
      tenantCode: String(data.tenantCode ?? ''),
      tenantName: String(data.tenantName ?? ''),
    };
  } catch (error) {
    console.info('[campus sub-app] standalone: the session did not answer who is signed in (sign in again at /login)', error);
    return null;
  }
}

export interface StandaloneOptions {
  /** id of the element to mount into; default 'root'. */
  rootId?: string;
  /** Replace some development props (basePath, userInfo, api …). */
  props?: Partial<ShellProps>;
  /** For tests; default the global fetch. */
  fetch?: typeof fetch;
}

export interface StandaloneHandle {
  props: SubAppMountProps;
  setLanguage: (language: ShellLanguage) => void;
  unmount: () => Promise<void>;
}

/**
 * Outside the shell, mounts the sub-app into #root with development props and returns a handle; inside the shell
 * it does nothing and resolves null (qiankun calls the lifecycles).
 */
export async function runStandalone(lifecycles: SubAppLifecycles, options: StandaloneOptions = {}): Promise<StandaloneHandle | null> {
  if (isInsideShell()) return null;
  const rootId = options.rootId ?? 'root';
  const container = document.getElementById(rootId);
  if (!container) throw new Error(`campus sub-app: no element #${rootId} to mount into`);

  // the language is followed from the start: a switch made while the signed-in user is being asked for (before the
  // app subscribes) is not lost, and the app mounts in it
  let language = standaloneLanguage();
  let subscriber: GlobalStateCallback | null = null;
  const onLanguageEvent = (event: Event) => {
    const next = (event as CustomEvent<Partial<StandaloneLanguageDetail> | undefined>).detail?.language;
    if (!isShellLanguage(next) || next === language) return;
    const previous: ShellBroadcast = { language };
    language = next;
    writeStorage(standaloneStorageKeys.language, next);
    subscriber?.({ language }, previous);
  };
  window.addEventListener(standaloneLanguageEvent, onLanguageEvent);
  const offGlobalStateChange = () => {
    subscriber = null;
    return true;
  };
  const onGlobalStateChange = (callback: GlobalStateCallback, fireImmediately?: boolean) => {
    subscriber = callback;
    if (fireImmediately) callback({ language }, { language });
  };

  const devProps = createDevProps(() => language, options.props, options.fetch);
  const userInfo = options.props?.userInfo ?? (await signedInUser(devProps.api)) ?? devProps.userInfo;
  const props: SubAppMountProps = {
    ...devProps,
    language: options.props?.language ?? language,
    userInfo,
    container,
    name: 'standalone',
    onGlobalStateChange,
    offGlobalStateChange,
    setGlobalState: (state) => {
      if (isShellLanguage(state.language)) setStandaloneLanguage(state.language);
      return true;
    },
  };
  await lifecycles.bootstrap(props);
  await lifecycles.mount(props);
  return {
    props,
    setLanguage: setStandaloneLanguage,
    unmount: async () => {
      await lifecycles.unmount(props);
      offGlobalStateChange();
      window.removeEventListener(standaloneLanguageEvent, onLanguageEvent);
    },
  };
}

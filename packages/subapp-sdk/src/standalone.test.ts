import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineSubApp, type SubAppContext } from './lifecycles.ts';
import { createDevApi, isInsideShell, runStandalone, setStandaloneLanguage, standaloneLanguage, standaloneStorageKeys } from './standalone.ts';
import { isPermissionDenied } from './api-error.ts';
import type { ShellLanguage } from './shared-state.ts';
import { browserUtcDiff } from './time.ts';

beforeEach(() => {
  document.body.innerHTML = '<div data-subapp-root id="root"></div>';
});

afterEach(() => {
  delete window.__POWERED_BY_QIANKUN__;
  localStorage.clear();
  document.body.replaceChildren();
  window.history.replaceState(null, '', '/');
  vi.restoreAllMocks();
});

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('isInsideShell', () => {
  it('follows the flag qiankun sets on the window', () => {
    expect(isInsideShell()).toBe(false);
    window.__POWERED_BY_QIANKUN__ = true;
    expect(isInsideShell()).toBe(true);
  });
});

describe('runStandalone', () => {
  it('does nothing inside the shell', async () => {
    window.__POWERED_BY_QIANKUN__ = true;
    const mount = vi.fn();
    await expect(runStandalone(defineSubApp({ mount }))).resolves.toBeNull();
    expect(mount).not.toHaveBeenCalled();
  });

  it('mounts into #root with development props and the stored language', async () => {
    localStorage.setItem(standaloneStorageKeys.language, 'zh-MO');
    let context: SubAppContext | null = null;
    const handle = await runStandalone(defineSubApp({ mount: (c) => void (context = c) }), { props: { basePath: '/qy/' } });
    const seen = context as SubAppContext | null;
    expect(seen?.root).toBe(document.getElementById('root'));
    expect(seen?.props.userInfo.name).toBe('Developer');
    expect(seen?.props.basePath).toBe('/qy/');
    expect(seen?.props.globalConfig.utcDiff).toBe(browserUtcDiff());
    expect(seen?.language()).toBe('zh-MO');
    await handle?.unmount();
  });

  it('with a session on this address, runs as the user signed in to the shell; when the call fails, as Developer', async () => {
    localStorage.setItem(standaloneStorageKeys.token, 'the-token');
    const fetch = vi.fn(async () => jsonResponse({ code: 0, data: { id: 'u7', code: 'staff', name: 'Staff', loginTime: 5, isSystemAdmin: false, tenantCode: '1001', tenantName: 'Demo Campus', mayManageCards: false } }));
    let context: SubAppContext | null = null;
    const handle = await runStandalone(defineSubApp({ mount: (c) => void (context = c) }), { fetch });
    expect((context as SubAppContext | null)?.props.userInfo).toEqual({ id: 'u7', code: 'staff', name: 'Staff', loginTime: 5, isSystemAdmin: false, tenantCode: '1001', tenantName: 'Demo Campus' });
    expect(fetch).toHaveBeenCalledWith('/qy/api/User/GetDetailByToken', expect.objectContaining({ headers: expect.objectContaining({ token: 'the-token' }) }));
    await handle?.unmount();

    vi.spyOn(console, 'info').mockImplementation(() => {});
    const expired = vi.fn(async () => jsonResponse({ code: 401, msg: 'signed out' }, 401));
    const again = await runStandalone(defineSubApp({ mount: (c) => void (context = c) }), { fetch: expired });
    expect((context as SubAppContext | null)?.props.userInfo.name).toBe('Developer');
    await again?.unmount();
  });

  it('takes the browser language when none is stored', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    expect(standaloneLanguage()).toBe('en-US');
  });

  it('switches language through the event API, stores it, and stops listening after unmount', async () => {
    localStorage.setItem(standaloneStorageKeys.language, 'en-US');
    const heard: ShellLanguage[] = [];
    const cleanup = vi.fn();
    const handle = await runStandalone(
      defineSubApp({
        mount: (context) => {
          context.onLanguageChange((language) => heard.push(language));
          return cleanup;
        },
      }),
    );
    setStandaloneLanguage('zh-CN');
    handle?.setLanguage('zh-MO');
    expect(heard).toEqual(['zh-CN', 'zh-MO']);
    expect(localStorage.getItem(standaloneStorageKeys.language)).toBe('zh-MO');
    await handle?.unmount();
    expect(cleanup).toHaveBeenCalledTimes(1);
    setStandaloneLanguage('en-US');
    expect(heard).toEqual(['zh-CN', 'zh-MO']);
  });

  it('a language switch made while the signed-in user is asked for is not lost: the app mounts in it (found by CI)', async () => {
    localStorage.setItem(standaloneStorageKeys.language, 'zh-CN');
    localStorage.setItem(standaloneStorageKeys.token, 'the-token');
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    let context: SubAppContext | null = null;
    const heard: ShellLanguage[] = [];
    const starting = runStandalone(
      defineSubApp({
        mount: (c) => {
          context = c;
          c.onLanguageChange((language) => heard.push(language));
        },
      }),
      { fetch },
    );
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    setStandaloneLanguage('en-US');
    answer(jsonResponse({ code: 0, data: { id: 'u7', code: 'staff', name: 'Staff', loginTime: 5, isSystemAdmin: false, tenantCode: '1001', tenantName: 'Demo Campus' } }));
    const handle = await starting;
    expect((context as SubAppContext | null)?.props.language).toBe('en-US');
    setStandaloneLanguage('zh-MO');
    expect(heard).toEqual(['zh-MO']);
    await handle?.unmount();
  });

  it('navigate pushes the path and fires popstate, like the shell', async () => {
    let context: SubAppContext | null = null;
    const handle = await runStandalone(defineSubApp({ mount: (c) => void (context = c) }));
    const popstate = vi.fn();
    window.addEventListener('popstate', popstate);
    expect((context as SubAppContext | null)?.props.navigate('qy', '/qy/homePage')).toBe(true);
    expect(window.location.pathname).toBe('/qy/homePage');
    expect(popstate).toHaveBeenCalledTimes(1);
    window.removeEventListener('popstate', popstate);
    await handle?.unmount();
  });

  it('refuses to start without the root element', async () => {
    document.body.replaceChildren();
    await expect(runStandalone(defineSubApp({ mount: () => {} }))).rejects.toThrow('#root');
  });
});

describe('createDevApi', () => {
  it('GET sends the stored token, tenant and the language, drops undefined query values, returns data and recordCount', async () => {
    localStorage.setItem(standaloneStorageKeys.token, 'tok-1');
    localStorage.setItem(standaloneStorageKeys.tenantCode, '1001');
    const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => jsonResponse({ code: 0, msg: 'ok', data: [1, 2], recordCount: 7 }));
    const api = createDevApi({ language: () => 'zh-MO', fetch: fetchMock });
    await expect(api.get<number[]>('/qy/api/x', { a: 1, b: undefined, c: 'x y' })).resolves.toEqual({ data: [1, 2], recordCount: 7 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/qy/api/x?a=1&c=x+y');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toMatchObject({ token: 'tok-1', tenantCode: '1001', language: 'zh-MO' });
  });

  it('POST sends JSON and resolves data without recordCount when there is none', async () => {
    const fetchMock = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => jsonResponse({ code: 0, msg: 'ok', data: { a: 1 } }));
    const api = createDevApi({ language: () => 'en-US', fetch: fetchMock });
    await expect(api.post('/p', { page: 1 })).resolves.toEqual({ data: { a: 1 } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"page":1}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init?.headers).not.toHaveProperty('token');
  });

  it('rejects a business failure with its code, and HTTP 403 as a permission failure', async () => {
    const answers = [jsonResponse({ code: 101, msg: 'bad', data: null }), jsonResponse({ code: 131, msg: 'No permission', data: null }, 403)];
    const api = createDevApi({ language: () => 'en-US', fetch: async () => answers.shift() as Response });
    await expect(api.get('/x')).rejects.toMatchObject({ code: 101, status: null, message: 'bad' });
    const denied = await api.post('/x').catch((error: unknown) => error);
    expect(denied).toMatchObject({ code: 131, status: 403 });
    expect(isPermissionDenied(denied)).toBe(true);
  });

  it('rejects network failures and answers that are not envelopes', async () => {
    const network = createDevApi({ language: () => 'en-US', fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(network.get('/x')).rejects.toMatchObject({ code: null, status: null, message: 'Failed to fetch' });
    const html = createDevApi({ language: () => 'en-US', fetch: async () => new Response('<html>', { status: 200 }) });
    await expect(html.get('/x')).rejects.toMatchObject({ code: null, status: null });
  });
});

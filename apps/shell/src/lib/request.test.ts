import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiGet, apiGetCounted, apiPost, apiPostForm, apiPostRaw, apiPostReply, fetchTransport, http, type HttpCall, plainGet, registerCurrentPath, registerNavigate, registerNotifier, registerPasswordChangeRequired, RequestError, resetRequestState } from './request.ts';
import * as storage from './storage.ts';
import { applyLanguage, i18n } from './i18n.ts';

let seen: HttpCall[] = [];
const navigate = vi.fn<(to: string) => unknown>();
const notify = vi.fn<(text: string) => void>();
let path = '/qy/homePage';

function answer(body: unknown, status = 200): void {
  http.transport = async (call) => {
    seen.push(call);
    return { data: body, status };
  };
}

function signIn(): void {
  storage.accessToken.set('tok-1');
  storage.masterCardToken.set('master-1');
  storage.tenantCode.set('1001');
  storage.loginFlag.set(true);
  storage.language.set('en-US');
}

beforeEach(async () => {
  seen = [];
  navigate.mockReset();
  notify.mockReset();
  path = '/qy/homePage';
  resetRequestState();
  registerNavigate((to) => {
    navigate(to);
    return Promise.resolve();
  });
  registerNotifier({ error: notify });
  registerCurrentPath(() => path);
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
});

describe('the end of a lock-out', () => {
  const lockingTime = Date.UTC(2026, 10, 24, 6, 5);
  const locked = { code: 112, msg: 'Too many failed sign-ins: the account is locked until 2026-11-24 06:05:00 UTC', data: { lockingTime, captchaRequired: true } };

  it('on the login page is shown in the browser’s time zone, named, not in the server’s UTC text', async () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(300); // a browser at UTC-5
    answer(locked);
    await expect(apiPost('/login', {})).rejects.toMatchObject({ code: 112 });
    expect(notify).toHaveBeenCalledWith('Too many failed sign-ins: the account is locked until Nov 24, 2026, 1:05 AM UTC-5');
    vi.restoreAllMocks();
  });

  it('signed in (a wrong current password) is shown on the user’s own clock, the one of the user settings', async () => {
    signIn();
    storage.utcDiff.set(480);
    answer(locked);
    await expect(apiPost('/system/api/Account/ChangePassword', {})).rejects.toMatchObject({ code: 112 });
    expect(notify).toHaveBeenCalledWith('Too many failed sign-ins: the account is locked until Nov 24, 2026, 2:05 PM UTC+8');
  });
});

describe('headers', () => {
  it('sends token, tenantCode, language and a fresh transID on every call', async () => {
    signIn();
    await applyLanguage('en-US');
    answer({ code: 0, msg: 'ok', data: 1 });
    await apiGet('/a');
    await apiGet('/b');
    const [first, second] = seen;
    expect(first!.headers.get('token')).toBe('tok-1');
    expect(first!.headers.get('tenantCode')).toBe('1001');
    expect(first!.headers.get('language')).toBe('en-US');
    expect(first!.headers.get('transID')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers.get('transID')).not.toBe(first!.headers.get('transID'));
    expect(first!.headers.get('cardDeviceToken')).toBeNull();
  });

  it('sends the interface language and omits token and tenantCode when signed out', async () => {
    await applyLanguage('zh-MO');
    answer({ code: 0, msg: 'ok', data: null });
    await apiGet('/a');
    expect(seen[0]!.headers.get('language')).toBe('zh-MO');
    expect(seen[0]!.headers.has('token')).toBe(false);
    expect(seen[0]!.headers.has('tenantCode')).toBe(false);
  });

  it('uses the master-card token when asked; the cardDeviceToken is for the card issuer only (lib/cards/card-issuer.ts)', async () => {
    signIn();
    answer({ code: 0, msg: 'ok', data: null });
    await apiPost('/qy/api/SystemKeyCard/Search', {}, { useMasterToken: true });
    expect(seen[0]!.headers.get('token')).toBe('master-1');
    expect(seen[0]!.headers.get('cardDeviceToken')).toBeNull();
  });
});

describe('envelope', () => {
  it('resolves data when code % 10 === 0', async () => {
    answer({ code: 20, msg: 'ok', data: { x: 1 } });
    await expect(apiGet('/a')).resolves.toEqual({ x: 1 });
    expect(notify).not.toHaveBeenCalled();
  });

  it('returns the raw envelope when asked, also for a failed code', async () => {
    answer({ code: 0, msg: 'ok', data: [1], recordCount: 1 });
    await expect(apiPostRaw('/a')).resolves.toEqual({ code: 0, msg: 'ok', data: [1], recordCount: 1 });
    answer({ code: 990481, msg: 'no card', data: null });
    await expect(apiPostRaw('/a')).resolves.toMatchObject({ code: 990481 });
    expect(notify).not.toHaveBeenCalled();
  });

  it('answers a caller that shows failures itself the whole envelope, else rejects with the server text and shows nothing', async () => {
    answer({ code: 0, msg: 'ok', data: [1], recordCount: 7 });
    await expect(apiPostReply('/a')).resolves.toEqual({ code: 0, msg: 'ok', data: [1], recordCount: 7 });
    answer({ code: 233, msg: 'the card is not valid', data: { fixedNo: 'DE000001' } });
    await expect(apiPostReply('/a')).rejects.toMatchObject({ name: 'RequestError', code: 233, status: null, message: 'the card is not valid', data: { fixedNo: 'DE000001' } });
    answer({ code: 221, msg: '', data: null });
    await expect(apiPostReply('/a')).rejects.toMatchObject({ code: 221, message: 'internal server error!' });
    answer({ code: 192, msg: 'no valid licence', data: null }, 403);
    await expect(apiPostReply('/a')).rejects.toMatchObject({ code: 192, status: null, message: 'no valid licence' });
    expect(notify).not.toHaveBeenCalled();
  });

  it.each([31, 32])('code %i clears storage and goes to /login without a message', async (code) => {
    signIn();
    answer({ code, msg: 'token invalid', data: null });
    await expect(apiGet('/a')).rejects.toMatchObject({ code });
    expect(storage.accessToken.get()).toBeNull();
    expect(storage.loginFlag.get()).toBe(false);
    expect(storage.language.get()).toBe('en-US');
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(notify).not.toHaveBeenCalled();
  });

  it('code 246 clears storage and goes to /login with the server message', async () => {
    signIn();
    answer({ code: 246, msg: 'This account is disabled', data: null });
    await expect(apiGet('/a')).rejects.toMatchObject({ code: 246 });
    expect(storage.accessToken.get()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(notify).toHaveBeenCalledWith('This account is disabled');
  });

  it('other failures show the server message and reject with code and data', async () => {
    signIn();
    answer({ code: 111, msg: 'Wrong account or password', data: { remainingAttempts: 2 } });
    const error = await apiPost('/a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: 111, data: { remainingAttempts: 2 }, message: 'Wrong account or password' });
    expect(notify).toHaveBeenCalledWith('Wrong account or password');
    expect(storage.accessToken.get()).toBe('tok-1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a failure without a message shows the localised default', async () => {
    answer({ code: 999, msg: '', data: null });
    await expect(apiGet('/a')).rejects.toMatchObject({ code: 999 });
    expect(notify).toHaveBeenCalledWith('internal server error!');
  });

  it('plainGet returns static JSON without an envelope', async () => {
    answer([{ showName: 'Tool', use: 'x', fileName: 't.zip' }]);
    await expect(plainGet('/tools/tools.json')).resolves.toHaveLength(1);
  });
});

describe('HTTP errors', () => {
  it('401 clears storage and goes to /login', async () => {
    signIn();
    answer({ code: 31, msg: 'x', data: null }, 401);
    await expect(apiGet('/a')).rejects.toMatchObject({ status: 401 });
    expect(storage.accessToken.get()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('a refused access token leaves the master-card token of the card screens alone', async () => {
    signIn();
    storage.masterCardToken.set('master');
    answer({ code: 31, msg: 'x', data: null }, 401);
    await expect(apiGet('/a')).rejects.toMatchObject({ status: 401 });
    expect(storage.accessToken.get()).toBeNull();
    expect(storage.masterCardToken.get()).toBe('master');
  });

  it('401 to a master-card call drops only the master-card token and rejects with the code: no redirect', async () => {
    signIn();
    path = '/swiper-sys-secret';
    answer({ code: 221, msg: 'Swipe the system mother card first', data: null }, 401);
    await expect(apiPostRaw('/qy/api/SystemKeyCard/Add', {}, { useMasterToken: true })).rejects.toMatchObject({ status: 401, code: 221 });
    expect(storage.masterCardToken.get()).toBeNull();
    expect(storage.accessToken.get()).toBe('tok-1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('401 on /not-login goes to /error with "token invalid"', async () => {
    path = '/not-login';
    answer(null, 401);
    await expect(apiGet('/a')).rejects.toBeInstanceOf(RequestError);
    expect(navigate).toHaveBeenCalledWith('/error?msg=token%20invalid');
  });

  it('401 to a call that signs in (the ticket exchange) is its own refusal: the code and message, no redirect', async () => {
    path = '/not-login';
    signIn();
    answer({ code: 328, msg: 'This sign-in link has expired or was already used', data: null }, 401);
    await expect(apiPost('/exchange', { ticket: 't' }, { signsIn: true, quiet: true })).rejects.toMatchObject({ status: 401, code: 328, message: 'This sign-in link has expired or was already used' });
    expect(navigate).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
    // a session of this browser (another tab's) is not ended by a refused ticket
    expect(storage.accessToken.get()).toBe('tok-1');
  });

  it('401 on /error, /login or a card screen clears storage but does not navigate: the page needs no sign-in', async () => {
    for (const where of ['/error', '/login', '/swipe-login', '/key-card-swipe-login', '/tools']) {
      signIn();
      path = where;
      answer(null, 401);
      await expect(apiGet('/a')).rejects.toBeInstanceOf(RequestError);
      expect(storage.accessToken.get()).toBeNull();
    }
    expect(navigate).not.toHaveBeenCalled();
  });

  it('only one 401 redirect at a time', async () => {
    let finish: () => void = () => {};
    registerNavigate((to) => {
      navigate(to);
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    });
    answer(null, 401);
    await Promise.allSettled([apiGet('/a'), apiGet('/b'), apiGet('/c')]);
    expect(navigate).toHaveBeenCalledTimes(1);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await apiGet('/d').catch(() => {});
    expect(navigate).toHaveBeenCalledTimes(2);
  });

  it('403 shows "no permission"', async () => {
    answer(null, 403);
    await expect(apiGet('/a')).rejects.toMatchObject({ status: 403 });
    expect(notify).toHaveBeenCalledWith('no permission');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('403 with an envelope shows the server\'s reason (a rule of the server: no valid licence)', async () => {
    signIn();
    answer({ code: 192, msg: 'No valid licence', data: null }, 403);
    await expect(apiGet('/a')).rejects.toMatchObject({ status: 403, code: 192 });
    expect(notify).toHaveBeenCalledWith('No valid licence');
    expect(storage.accessToken.get()).toBe('tok-1');
  });

  it('a call refused for the forced password change (191) waits for the change: no message, no failure, the dialog is asked for', async () => {
    signIn();
    const required = vi.fn<(reason: string) => void>();
    registerPasswordChangeRequired(required);
    answer({ code: 191, msg: 'Your password must be changed before you can go on', data: null }, 403);
    const settled = vi.fn();
    for (const call of [apiGet('/a'), apiPostRaw('/b'), apiGetCounted('/c')]) void call.then(settled, settled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).not.toHaveBeenCalled();
    expect(notify).not.toHaveBeenCalled();
    expect(required).toHaveBeenCalledTimes(3);
    expect(required).toHaveBeenCalledWith('Your password must be changed before you can go on');
    expect(storage.accessToken.get()).toBe('tok-1');
    expect(navigate).not.toHaveBeenCalled();
    registerPasswordChangeRequired(() => {});
  });

  it('403 to a raw call resolves with the envelope and shows nothing: the caller decides', async () => {
    answer({ code: 192, msg: 'no valid licence', data: null }, 403);
    await expect(apiPostRaw('/a')).resolves.toMatchObject({ code: 192, msg: 'no valid licence' });
    expect(notify).not.toHaveBeenCalled();
  });

  it('429 with an envelope shows the server\'s message (how long to wait)', async () => {
    answer({ code: 162, msg: 'please wait 4 s', data: { retryAfter: 4 } }, 429);
    await expect(apiPost('/a')).rejects.toMatchObject({ status: 429, code: 162, data: { retryAfter: 4 } });
    expect(notify).toHaveBeenCalledWith('please wait 4 s');
  });

  it.each([400, 404, 408, 500, 502, 503])('%i is rejected silently', async (status) => {
    signIn();
    answer({ code: 101, msg: 'bad field', data: null }, status);
    await expect(apiGet('/a')).rejects.toMatchObject({ status });
    expect(notify).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    expect(storage.accessToken.get()).toBe('tok-1');
  });

  it('a network failure is rejected silently', async () => {
    http.transport = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(apiGet('/a')).rejects.toMatchObject({ status: null });
    expect(notify).not.toHaveBeenCalled();
  });
});


describe('over the browser’s fetch', () => {
  let sent: { url: string; init: RequestInit }[] = [];
  beforeEach(() => {
    sent = [];
    http.transport = fetchTransport;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
  function serve(reply: () => Response | Promise<Response>): void {
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return reply();
    });
  }

  it('sends JSON with its type, the query on the path (a list as the name repeated), and reads the JSON answer', async () => {
    serve(() => new Response(JSON.stringify({ code: 0, msg: 'ok', data: { id: 7 } })));
    await expect(apiGet('/a/b', { index: 1, size: 20, ids: ['x', 'y'], left: undefined })).resolves.toEqual({ id: 7 });
    await expect(apiPost('/a/c', { name: '王' })).resolves.toEqual({ id: 7 });
    expect(sent[0]!.url).toBe('/a/b?index=1&size=20&ids=x&ids=y');
    expect(sent[0]!.init.method).toBe('GET');
    expect(sent[0]!.init.body).toBeUndefined();
    expect(new Headers(sent[0]!.init.headers).has('Content-Type')).toBe(false);
    expect(sent[1]!.init.method).toBe('POST');
    expect(sent[1]!.init.body).toBe('{"name":"王"}');
    expect(new Headers(sent[1]!.init.headers).get('Content-Type')).toBe('application/json');
  });

  it('leaves the multipart type and its boundary of a file upload to the browser', async () => {
    serve(() => new Response(JSON.stringify({ code: 0, msg: 'ok', data: null })));
    const form = new FormData();
    form.append('file', new Blob(['licence']), 'a.lic');
    await apiPostForm('/upload', form);
    expect(sent[0]!.init.body).toBe(form);
    expect(new Headers(sent[0]!.init.headers).has('Content-Type')).toBe(false);
  });

  it('a failed status keeps the server’s envelope; a body that is not JSON is an internal error', async () => {
    serve(() => new Response(JSON.stringify({ code: 102, msg: 'no right', data: null }), { status: 403 }));
    await expect(apiGet('/a')).rejects.toMatchObject({ status: 403, code: 102, message: 'no right' });
    expect(notify).toHaveBeenCalledWith('no right');
    serve(() => new Response('<html>proxy error</html>'));
    await expect(apiGet('/a')).rejects.toMatchObject({ data: '<html>proxy error</html>' });
    expect(notify).toHaveBeenLastCalledWith('internal server error!');
  });

  it('gives up after 30 s without an answer, silently, as a call that got none', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const call = apiGet('/slow');
    const outcome = expect(call).rejects.toMatchObject({ status: null, message: 'request timed out' });
    await vi.advanceTimersByTimeAsync(29_999);
    let settled = false;
    void call.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(notify).not.toHaveBeenCalled();
  });
});

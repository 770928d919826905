import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiPaths } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { http, registerNotifier, type Transport } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import type { SubAppDefinition } from '../../lib/sub-apps.ts';
import { applyDevOverride, devBrowserCookieSet, entryAllowed, useDevOverrideStore, withDevOverride } from './dev-override.ts';
import { DevOverrideBadge } from './dev-override-badge.tsx';

const loopback = ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'];
const registry = (): SubAppDefinition[] => [
  { name: 'qy', entry: '/subapps/qy/', basePath: '/qy/', appNos: ['xt', 'qy'], installed: true },
  { name: 'kq', entry: '/subapps/kq/', basePath: '/kq/', appNos: ['kq'], installed: false },
];
const devEntry = 'http://localhost:5173/__campus-subapp/';

let allowed: string[] = [];
let policyCalls = 0;
const messages: string[] = [];
const fakeServer: Transport = async (call) => {
  if (call.url !== apiPaths.subAppDevOverrides) return { status: 404, data: { code: 141, msg: 'not found', data: null } };
  policyCalls++;
  return { status: 200, data: { code: 0, msg: 'ok', data: { origins: allowed } } };
};

beforeEach(async () => {
  allowed = [];
  policyCalls = 0;
  messages.length = 0;
  http.transport = fakeServer;
  registerNotifier({ error: (text) => messages.push(text) });
  useDevOverrideStore.setState({ active: null });
  await i18n.changeLanguage('en-US');
});
afterEach(() => {
  localStorage.clear();
  document.cookie = 'campus-dev-override=; path=/; max-age=0';
  vi.unstubAllGlobals();
});

/** A stand-in for location.reload (jsdom cannot reload). */
function watchReloads() {
  const reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, reload });
  return reload;
}

describe('entryAllowed: the server-given origin patterns', () => {
  it('a :* pattern admits every port of that scheme and host, nothing else', () => {
    expect(entryAllowed('http://localhost:5173/__campus-subapp/', loopback)).toBe(true);
    expect(entryAllowed('http://127.0.0.1:6571/', loopback)).toBe(true);
    expect(entryAllowed('http://[::1]:3000/x/', loopback)).toBe(true);
    expect(entryAllowed('https://localhost:5173/', loopback)).toBe(false);
    expect(entryAllowed('http://localhost.evil.example:5173/', loopback)).toBe(false);
    expect(entryAllowed('http://evil.example/', loopback)).toBe(false);
  });

  it('an exact pattern admits its own port only; credentials, other schemes and nonsense never', () => {
    expect(entryAllowed('http://localhost:5173/', ['http://localhost:5173'])).toBe(true);
    expect(entryAllowed('http://localhost:5174/', ['http://localhost:5173'])).toBe(false);
    expect(entryAllowed('https://dev.example.com/app/', ['https://dev.example.com'])).toBe(true);
    expect(entryAllowed('https://dev.example.com:8443/app/', ['https://dev.example.com'])).toBe(false);
    expect(entryAllowed('http://user:pw@localhost:5173/', loopback)).toBe(false);
    expect(entryAllowed('javascript:alert(1)', loopback)).toBe(false);
    expect(entryAllowed('/subapps/qy/', loopback)).toBe(false);
  });
});

describe('applyDevOverride', () => {
  it('replaces only the named application’s entry, which then counts as installed', () => {
    const { apps, outcome } = applyDevOverride(registry(), { app: 'qy', entry: devEntry }, loopback);
    expect(outcome).toEqual({ kind: 'applied', override: { app: 'qy', entry: devEntry } });
    expect(apps.map((app) => [app.name, app.entry])).toEqual([
      ['qy', devEntry],
      ['kq', '/subapps/kq/'],
    ]);
  });

  it('leaves the registry as it is when the server allows none, not this origin, or the app is unknown', () => {
    for (const [stored, origins, reason] of [
      [{ app: 'qy', entry: devEntry }, [], 'off'],
      [{ app: 'qy', entry: 'http://evil.example/' }, loopback, 'origin'],
      [{ app: 'zz', entry: devEntry }, loopback, 'app'],
      ['invalid', loopback, 'invalid'],
    ] as const) {
      const { apps, outcome } = applyDevOverride(registry(), stored, origins);
      expect(apps).toEqual(registry());
      expect(outcome).toMatchObject({ kind: 'refused', reason });
    }
  });
});

describe('withDevOverride: what a page view loads', () => {
  it('asks the server nothing when no override is stored', async () => {
    expect(await withDevOverride(registry())).toEqual(registry());
    expect(policyCalls).toBe(0);
  });

  it('allowed, first page view: the page loads again with the cookie that asks the server for the dev origins', async () => {
    allowed = loopback;
    storage.subAppDevOverride.set(JSON.stringify({ app: 'qy', entry: devEntry }));
    const reload = watchReloads();
    let settled = false;
    void withDevOverride(registry()).then(() => (settled = true));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(devBrowserCookieSet()).toBe(true);
    expect(settled).toBe(false);
  });

  it('allowed, with the cookie: the dev entry loads and the header shows the badge, which turns it all off', async () => {
    allowed = loopback;
    document.cookie = 'campus-dev-override=1; path=/';
    storage.subAppDevOverride.set(JSON.stringify({ app: 'qy', entry: devEntry }));
    const reload = watchReloads();
    const apps = await withDevOverride(registry());
    expect(apps[0]?.entry).toBe(devEntry);
    expect(messages).toEqual([]);
    expect(reload).not.toHaveBeenCalled();

    render(<DevOverrideBadge />);
    expect(screen.getByRole('status')).toHaveTextContent('Dev: qy → http://localhost:5173');
    await userEvent.click(screen.getByRole('button', { name: 'Turn off the development code of qy' }));
    expect(storage.subAppDevOverride.get()).toBeNull();
    expect(devBrowserCookieSet()).toBe(false);
    expect(reload).toHaveBeenCalledOnce();
  });

  it('refused by the server: the deployed build loads, the override is removed with a message in the language, no badge', async () => {
    await i18n.changeLanguage('zh-MO');
    document.cookie = 'campus-dev-override=1; path=/';
    storage.subAppDevOverride.set(JSON.stringify({ app: 'qy', entry: devEntry }));
    const apps = await withDevOverride(registry());
    expect(apps).toEqual(registry());
    expect(storage.subAppDevOverride.get()).toBeNull();
    expect(devBrowserCookieSet()).toBe(false);
    expect(messages).toEqual([`此伺服器不允許開發代碼：已從此瀏覽器刪除 qy（${devEntry}）的覆蓋設定，並載入已安裝的版本。`]);
    render(<DevOverrideBadge />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('an origin the server does not list is refused even when others are allowed', async () => {
    allowed = ['http://localhost:5173'];
    storage.subAppDevOverride.set(JSON.stringify({ app: 'qy', entry: 'http://localhost:9999/' }));
    expect(await withDevOverride(registry())).toEqual(registry());
    expect(storage.subAppDevOverride.get()).toBeNull();
    expect(messages[0]).toContain('http://localhost:9999/');
    expect(useDevOverrideStore.getState().active).toBeNull();
  });
});

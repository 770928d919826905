import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { HomeFigures, OperationLogRow } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import type { ShellApiResult, SubAppLifecycles } from '@campus/subapp-sdk';
import { createFakeApi, mountApp } from './test-support.ts';

const figures: HomeFigures = { employeeCount: 5, departmentCount: 2, activeSessionCount: 1, licence: { isNormal: true, licenseType: 2, licenseState: 5 } };

function answeringApi() {
  const fake = createFakeApi();
  fake.get.mockImplementation(async () => ({ data: figures }));
  fake.post.mockImplementation(async (): Promise<ShellApiResult<OperationLogRow[]>> => ({ data: [], recordCount: 0 }));
  return fake;
}

const title = () => screen.getByRole('heading', { level: 2 }).textContent;

describe('routing', () => {
  it('swaps the page when the shell changes the route (pushState + popstate)', async () => {
    const { api } = answeringApi();
    const app = await mountApp({ api });
    expect(title()).toMatch(/, Ada$/);
    await app.go('/qy/operate-log');
    expect(title()).toBe('Operation log');
    await app.go('/qy/homePage');
    expect(title()).toMatch(/, Ada$/);
  });

  it('ignores a route of another system (the shell is about to unmount the app)', async () => {
    const { api } = answeringApi();
    const app = await mountApp({ path: '/qy/operate-log', api });
    await app.go('/kq/attendance');
    expect(title()).toBe('Operation log');
    expect(screen.queryByText(/not part of/)).toBeNull();
  });

  it('any other /qy/ path shows the "not part of" panel with the path as text and a way home', async () => {
    const navigate = vi.fn(() => true);
    const app = await mountApp({ path: '/qy/department/<b>x</b>', navigate });
    expect(title()).toBe('This page is not part of the reference enterprise-data sub-app');
    const code = app.root.querySelector('code');
    expect(code?.textContent).toBe(window.location.pathname);
    expect(code?.children).toHaveLength(0);
    expect(app.root.querySelector('b')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Go to the enterprise-data home page' }));
    expect(navigate).toHaveBeenCalledWith('qy', '/qy/homePage');
  });

  it('translates the panel', async () => {
    await mountApp({ path: '/qy/nothing', language: 'zh-MO' });
    expect(title()).toBe('此頁面不屬於企業數據參考子應用');
    expect(screen.getByRole('button', { name: '前往企業數據首頁' })).toBeTruthy();
  });
});

describe('lifecycles', () => {
  it('follows the language of the broadcast from the first render', async () => {
    const { api } = answeringApi();
    const app = await mountApp({ path: '/qy/operate-log', api, language: 'en-US' });
    expect(app.root.querySelector('.qy-app')?.getAttribute('lang')).toBe('en-US');
    await app.setLanguage('zh-CN');
    expect(title()).toBe('操作日志');
    expect(app.root.querySelector('.qy-app')?.getAttribute('lang')).toBe('zh-CN');
  });

  it('unmount leaves no DOM, no popstate listener and no global-state listener, over 50 rounds', async () => {
    const { api, get } = answeringApi();
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const popstate = (spy: typeof added) => spy.mock.calls.filter(([type]) => type === 'popstate').length;
    for (let round = 0; round < 50; round += 1) {
      const app = await mountApp({ path: round % 2 ? '/qy/homePage' : '/qy/operate-log', api });
      expect(app.root.childElementCount).toBe(1);
      expect(app.hub.listenerCount()).toBe(1);
      await app.setLanguage(round % 3 ? 'zh-CN' : 'en-US');
      await app.unmount();
      expect(app.root.childElementCount).toBe(0);
      expect(app.root.innerHTML).toBe('');
      expect(app.hub.listenerCount()).toBe(0);
    }
    expect(popstate(added)).toBe(50);
    expect(popstate(removed)).toBe(50);
    // one figures call per mount of the home page (the tenant's name is asked for beside it)
    expect(get.mock.calls.filter(([path]) => path === apiPaths.qyHomeFigures)).toHaveLength(25);
  });

  it('a popstate after unmount does nothing', async () => {
    const app = await mountApp({ path: '/qy/nothing' });
    await app.unmount();
    await act(async () => {
      window.history.pushState(null, '', '/qy/homePage');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(app.root.innerHTML).toBe('');
  });
});

describe('the UMD entry', () => {
  it('exports exactly the qiankun lifecycles and, outside the shell, mounts itself into #subapp-qy-root', async () => {
    document.body.innerHTML = '<div data-subapp-root id="subapp-qy-root"></div>';
    window.history.replaceState(null, '', '/subapps/qy/');
    let entry: Record<string, unknown> = {};
    await act(async () => {
      entry = { ...(await import('./main.ts')) };
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    const unmount = entry.unmount as SubAppLifecycles['unmount'];
    expect(Object.keys(entry).sort()).toEqual(['bootstrap', 'mount', 'unmount', 'update']);
    await waitFor(() => expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('This page is not part of the reference enterprise-data sub-app'));
    expect(screen.getByText('/subapps/qy/')).toBeTruthy();
    await act(async () => {
      await unmount();
    });
    expect(document.getElementById('subapp-qy-root')?.innerHTML).toBe('');
  });
});

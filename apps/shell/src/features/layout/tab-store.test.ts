import { beforeEach, describe, expect, it } from 'vitest';
import type { MenuData } from '@campus/contracts';
import * as storage from '../../lib/storage.ts';
import { i18n } from '../../lib/i18n.ts';
import { applyMenus, menuTitleKey } from '../../lib/menus.ts';
import { closeTab, closeTabsBeside, emptyTabs, openTab, restoreTabs, retainPermitted, tabActions, useTabStore, type TabState } from './tab-store.ts';

const page = (n: number) => ({ path: `/qy/page-${n}`, titleKey: `menu:page-${n}` });
const openMany = (count: number, state: TabState = emptyTabs) => {
  let next = state;
  for (let n = 1; n <= count; n += 1) next = openTab(next, page(n));
  return next;
};

describe('opening tabs', () => {
  it('adds a tab and makes it active', () => {
    const state = openTab(emptyTabs, page(1));
    expect(state).toEqual({ tabs: [{ key: '/qy/page-1', path: '/qy/page-1', titleKey: 'menu:page-1' }], activeKey: '/qy/page-1' });
  });

  it('one page is one tab, whatever its query or trailing slash; re-opening activates it and keeps the latest query', () => {
    let state = openMany(3);
    state = openTab(state, { path: '/qy/page-1/?tab=2', titleKey: 'menu:page-1' });
    expect(state.tabs.map((tab) => tab.key)).toEqual(['/qy/page-1', '/qy/page-2', '/qy/page-3']);
    expect(state.activeKey).toBe('/qy/page-1');
    expect(state.tabs[0]!.path).toBe('/qy/page-1/?tab=2');
  });

  it('keeps at most ten: the eleventh drops the oldest', () => {
    const state = openMany(11);
    expect(state.tabs).toHaveLength(10);
    expect(state.tabs.map((tab) => tab.key)).not.toContain('/qy/page-1');
    expect(state.tabs.at(-1)!.key).toBe('/qy/page-11');
    expect(state.activeKey).toBe('/qy/page-11');
  });

  it('twelve pages keep the ten newest, the active one among them', () => {
    const state = openMany(12);
    expect(state.tabs.map((tab) => tab.key)).toEqual(Array.from({ length: 10 }, (_, i) => `/qy/page-${i + 3}`));
  });

  it('drops by opening order and never the tab being opened', () => {
    const limit = 3;
    let state = openTab(openTab(openTab(emptyTabs, page(1), limit), page(2), limit), page(3), limit);
    state = openTab(state, page(1), limit); // re-activating does not make a tab younger
    state = openTab(state, page(4), limit);
    expect(state.tabs.map((tab) => tab.key)).toEqual(['/qy/page-2', '/qy/page-3', '/qy/page-4']);
    expect(state.activeKey).toBe('/qy/page-4');
  });
});

describe('closing tabs from a tab\'s context menu', () => {
  const keys = (state: TabState) => state.tabs.map((tab) => tab.key);

  it('close others keeps only that tab, makes it active and goes there', () => {
    const result = closeTabsBeside(openMany(4), '/qy/page-2', 'others');
    expect(keys(result.state)).toEqual(['/qy/page-2']);
    expect(result.state.activeKey).toBe('/qy/page-2');
    expect(result.navigateTo).toBe('/qy/page-2');
  });

  it('close to the right keeps the tabs up to that one; an active tab among them stays active', () => {
    const state = openTab(openMany(4), page(1));
    const result = closeTabsBeside(state, '/qy/page-2', 'right');
    expect(keys(result.state)).toEqual(['/qy/page-1', '/qy/page-2']);
    expect(result.state.activeKey).toBe('/qy/page-1');
    expect(result.navigateTo).toBeNull();
  });

  it('close to the right of a tab left of the active one activates that tab', () => {
    const result = closeTabsBeside(openMany(4), '/qy/page-2', 'right');
    expect(keys(result.state)).toEqual(['/qy/page-1', '/qy/page-2']);
    expect(result.navigateTo).toBe('/qy/page-2');
  });

  it('close all leaves none and returns to /home; an unknown tab changes nothing', () => {
    expect(closeTabsBeside(openMany(3), '/qy/page-3', 'all')).toEqual({ state: emptyTabs, navigateTo: '/home' });
    const state = openMany(2);
    expect(closeTabsBeside(state, '/qy/none', 'all')).toEqual({ state, navigateTo: null });
  });
});

describe('closing tabs', () => {
  it('closing the active tab activates its right neighbour and navigates there', () => {
    const state = openTab(openMany(3), page(2));
    const result = closeTab(state, '/qy/page-2');
    expect(result.state.tabs.map((tab) => tab.key)).toEqual(['/qy/page-1', '/qy/page-3']);
    expect(result.state.activeKey).toBe('/qy/page-3');
    expect(result.navigateTo).toBe('/qy/page-3');
  });

  it('closing the active last-in-row tab activates its left neighbour', () => {
    const result = closeTab(openMany(3), '/qy/page-3');
    expect(result.state.activeKey).toBe('/qy/page-2');
    expect(result.navigateTo).toBe('/qy/page-2');
  });

  it('closing an inactive tab keeps the active one and stays', () => {
    const result = closeTab(openMany(3), '/qy/page-1');
    expect(result.state.activeKey).toBe('/qy/page-3');
    expect(result.navigateTo).toBeNull();
  });

  it('closing the last tab returns to /home', () => {
    const result = closeTab(openMany(1), '/qy/page-1');
    expect(result.state).toEqual(emptyTabs);
    expect(result.navigateTo).toBe('/home');
  });

  it('closing an unknown tab changes nothing', () => {
    const state = openMany(2);
    expect(closeTab(state, '/nope')).toEqual({ state, navigateTo: null });
  });
});

describe('re-checking and restoring', () => {
  it('drops tabs the user may no longer open and re-picks the active one', () => {
    const state = openTab(openMany(3), page(2));
    const kept = retainPermitted(state, (path) => path !== '/qy/page-2');
    expect(kept.tabs.map((tab) => tab.key)).toEqual(['/qy/page-1', '/qy/page-3']);
    expect(kept.activeKey).toBe('/qy/page-3');
  });

  it('restores only well-formed tabs', () => {
    const saved = {
      tabs: [
        { key: '/qy/page-1', path: '/qy/page-1?x=1', titleKey: 'menu:page-1' },
        { key: '/evil', path: '/qy/page-2', titleKey: 'menu:page-2' },
        { key: '/qy/page-3', path: '/qy/page-3', titleKey: 42 },
        'junk',
      ],
      activeKey: '/evil',
    };
    expect(restoreTabs(saved)).toEqual({ tabs: [{ key: '/qy/page-1', path: '/qy/page-1?x=1', titleKey: 'menu:page-1' }], activeKey: '/qy/page-1' });
    expect(restoreTabs(null)).toEqual(emptyTabs);
    expect(restoreTabs({ tabs: 'x' })).toEqual(emptyTabs);
  });
});

describe('the store', () => {
  beforeEach(() => {
    tabActions.reset();
    sessionStorage.clear();
  });

  it('keeps the tabs for the browser session and a sign-out clears them', () => {
    tabActions.open(page(1));
    tabActions.open(page(2));
    expect(restoreTabs(storage.pageTabs.get()).tabs.map((tab) => tab.key)).toEqual(['/qy/page-1', '/qy/page-2']);
    storage.clearSession();
    expect(storage.pageTabs.get()).toBeNull();
  });

  it('tells its readers only of real changes: the layout renders again only when the tabs did change', () => {
    tabActions.open(page(1));
    tabActions.open(page(2));
    const seen: TabState[] = [];
    const unsubscribe = useTabStore.subscribe((state) => seen.push(state));
    tabActions.open(page(2)); // already the active tab, same address and title
    tabActions.retain(() => true);
    tabActions.reread(); // what this browser session kept is what the store holds
    expect(seen).toEqual([]);
    tabActions.open({ path: '/qy/page-2?x=1', titleKey: 'menu:page-2' });
    tabActions.retain((path) => !path.startsWith('/qy/page-1'));
    expect(seen.map((state) => state.tabs.map((tab) => tab.path))).toEqual([['/qy/page-1', '/qy/page-2?x=1'], ['/qy/page-2?x=1']]);
    // another browser tab of this session signed out: the kept tabs are gone, and re-reading says so
    sessionStorage.clear();
    tabActions.reread();
    expect(useTabStore.getState()).toEqual(emptyTabs);
    expect(seen).toHaveLength(3);
    unsubscribe();
  });

  it('close returns where to go', () => {
    tabActions.open(page(1));
    expect(tabActions.close('/qy/page-1')).toBe('/home');
    expect(useTabStore.getState()).toEqual(emptyTabs);
  });
});

describe('relabelling', () => {
  const menus = (title: string): MenuData => ({
    menuBaseList: [{ id: 'sys-qy', appNo: 'qy', appId: 'qy', frontRoutingAddr: 'qy', label: 'QY', sortNum: 1 }],
    menuList: [{ id: 'qy-department', path: '/qy/department', name: 'department', title, sortNum: 1, isFuncRight: false, funcRightPerms: [], meta: { appNo: 'qy', parentId: null, isSide: true } }],
  });

  it('a tab keeps the key of its title, so it reads in whatever language is current', async () => {
    applyMenus({ language: 'en-US', data: menus('Departments'), permissions: [{ appCode: 'qy', ids: [] }] });
    applyMenus({ language: 'zh-MO', data: menus('部門管理'), permissions: [{ appCode: 'qy', ids: [] }] });
    const state = openTab(emptyTabs, { path: '/qy/department', titleKey: menuTitleKey('qy-department') });
    const label = () => i18n.t(state.tabs[0]!.titleKey);
    await i18n.changeLanguage('en-US');
    expect(label()).toBe('Departments');
    await i18n.changeLanguage('zh-MO');
    expect(label()).toBe('部門管理');
    await i18n.changeLanguage('zh-CN');
  });
});

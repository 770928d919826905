import { create } from 'zustand';
import { maxPageTabs } from '@campus/contracts';
import * as storage from '../../lib/storage.ts';
import { homePath } from '../../lib/paths.ts';
import { tabKey } from './tab-key.ts';

/** One page tab. `titleKey` is an i18n key (menu titles are registered as `menu:<id>`), never a text. */
export interface PageTab {
  key: string;
  /** Where the tab goes back to: the path with its query. */
  path: string;
  titleKey: string;
}

export interface TabState {
  /** In the order they were opened: the first is the oldest. */
  tabs: PageTab[];
  activeKey: string | null;
}

export const emptyTabs: TabState = { tabs: [], activeKey: null };

/**
 * Opens (or re-activates) the tab of `path`. Beyond `limit` the oldest tab is dropped: never the active one,
 * which is the one just opened.
 */
export function openTab(state: TabState, page: { path: string; titleKey: string }, limit = maxPageTabs): TabState {
  const key = tabKey(page.path);
  const existing = state.tabs.find((tab) => tab.key === key);
  // the same state when nothing changes: the store then tells no one, and nothing renders again
  if (existing && state.activeKey === key && existing.path === page.path && existing.titleKey === page.titleKey) return state;
  if (existing) {
    const tabs = state.tabs.map((tab) => (tab.key === key ? { ...tab, path: page.path, titleKey: page.titleKey } : tab));
    return { tabs, activeKey: key };
  }
  let tabs = [...state.tabs, { key, path: page.path, titleKey: page.titleKey }];
  while (tabs.length > limit) {
    const oldest = tabs.findIndex((tab) => tab.key !== key);
    tabs = tabs.filter((_, index) => index !== oldest);
  }
  return { tabs, activeKey: key };
}

/**
 * Closes a tab. Closing the active tab activates its right neighbour, else its left one; closing the last
 * tab leaves none and sends the user to /home. `navigateTo` is where to go, or null to stay.
 */
export function closeTab(state: TabState, key: string): { state: TabState; navigateTo: string | null } {
  const index = state.tabs.findIndex((tab) => tab.key === key);
  if (index < 0) return { state, navigateTo: null };
  const tabs = state.tabs.filter((tab) => tab.key !== key);
  if (tabs.length === 0) return { state: emptyTabs, navigateTo: homePath };
  if (state.activeKey !== key) return { state: { tabs, activeKey: state.activeKey }, navigateTo: null };
  const neighbour = tabs[Math.min(index, tabs.length - 1)]!;
  return { state: { tabs, activeKey: neighbour.key }, navigateTo: neighbour.path };
}

/** What a tab's context menu closes, beside the tab it was opened on. */
export type TabsToClose = 'others' | 'right' | 'all';

/**
 * Closes the other tabs, the tabs right of `key`, or all of them (a tab's context menu). When the active tab
 * goes, the tab of `key` becomes active; when none is left the user goes to /home, as after closing the last.
 */
export function closeTabsBeside(state: TabState, key: string, which: TabsToClose): { state: TabState; navigateTo: string | null } {
  const index = state.tabs.findIndex((tab) => tab.key === key);
  if (index < 0) return { state, navigateTo: null };
  const tabs = which === 'all' ? [] : which === 'others' ? [state.tabs[index]!] : state.tabs.slice(0, index + 1);
  if (tabs.length === 0) return { state: emptyTabs, navigateTo: homePath };
  if (tabs.some((tab) => tab.key === state.activeKey)) return { state: { tabs, activeKey: state.activeKey }, navigateTo: null };
  const kept = state.tabs[index]!;
  return { state: { tabs, activeKey: kept.key }, navigateTo: kept.path };
}

/** After a reload or a menu change: keeps only the tabs whose page the user may still open. */
export function retainPermitted(state: TabState, isPermitted: (path: string) => boolean): TabState {
  const tabs = state.tabs.filter((tab) => isPermitted(tab.path));
  const activeKey = tabs.some((tab) => tab.key === state.activeKey) ? state.activeKey : (tabs.at(-1)?.key ?? null);
  return tabs.length === state.tabs.length && activeKey === state.activeKey ? state : { tabs, activeKey };
}

function isPageTab(value: unknown): value is PageTab {
  if (typeof value !== 'object' || value === null) return false;
  const tab = value as Record<string, unknown>;
  return typeof tab.key === 'string' && typeof tab.path === 'string' && typeof tab.titleKey === 'string' && tab.key === tabKey(tab.path);
}

/** The tabs kept for this browser session; anything malformed is dropped. */
export function restoreTabs(saved: unknown): TabState {
  if (typeof saved !== 'object' || saved === null) return emptyTabs;
  const { tabs, activeKey } = saved as Record<string, unknown>;
  if (!Array.isArray(tabs)) return emptyTabs;
  const valid = tabs.filter(isPageTab).slice(-maxPageTabs);
  const active = typeof activeKey === 'string' && valid.some((tab) => tab.key === activeKey) ? activeKey : (valid.at(-1)?.key ?? null);
  return { tabs: valid, activeKey: active };
}

function sameTab(one: PageTab, other: PageTab | undefined): boolean {
  return other !== undefined && one.key === other.key && one.path === other.path && one.titleKey === other.titleKey;
}

/** The page tabs of this browser session. */
export const useTabStore = create<TabState>(() => restoreTabs(storage.pageTabs.get()));

useTabStore.subscribe((state) => storage.pageTabs.set(state.tabs.length > 0 ? { tabs: state.tabs, activeKey: state.activeKey } : null));

export const tabActions = {
  open(page: { path: string; titleKey: string }): void {
    useTabStore.setState((state) => openTab(state, page));
  },
  /** Returns where to navigate, or null. */
  close(key: string): string | null {
    const result = closeTab(useTabStore.getState(), key);
    useTabStore.setState(result.state, true);
    return result.navigateTo;
  },
  /** A context menu's closing of several tabs; returns where to navigate, or null. */
  closeBeside(key: string, which: TabsToClose): string | null {
    const result = closeTabsBeside(useTabStore.getState(), key, which);
    useTabStore.setState(result.state, true);
    return result.navigateTo;
  },
  /** The tabs this browser session kept (another tab may have signed out meanwhile); unchanged, nothing renders. */
  reread(): void {
    const saved = restoreTabs(storage.pageTabs.get());
    const state = useTabStore.getState();
    const same = saved.activeKey === state.activeKey && saved.tabs.length === state.tabs.length && saved.tabs.every((tab, index) => sameTab(tab, state.tabs[index]));
    if (!same) useTabStore.setState(saved, true);
  },
  retain(isPermitted: (path: string) => boolean): void {
    useTabStore.setState((state) => retainPermitted(state, isPermitted), true);
  },
  /** Logout: the store empties with the session storage. */
  reset(): void {
    useTabStore.setState(emptyTabs, true);
  },
};

import { create } from 'zustand';
import type { LanguageCode, MenuData, MenuPage, MenuSystem, PermissionEntry } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from './request.ts';
import * as storage from './storage.ts';
import { firstSegment, normalisePath } from './paths.ts';
import { currentLanguage, i18n, loadLanguage } from './i18n.ts';

export interface MenuState {
  loaded: boolean;
  systems: MenuSystem[];
  pages: MenuPage[];
  permissions: PermissionEntry[];
}

const empty: MenuState = { loaded: false, systems: [], pages: [], permissions: [] };

/** Menus and permissions of the signed-in user (client state, shared by the guard, home and layout). */
export const useMenuStore = create<MenuState>(() => ({ ...empty }));

const bySort = <T extends { sortNum: number }>(a: T, b: T) => a.sortNum - b.sortNum;

/** The building monitor (spec §1, §6): code mk, served from monitor/mj. */
export const buildingMonitor = { appNo: 'mk', frontRoutingAddr: 'monitor/mj' } as const;

/** Paths containing /monitor/mj/ are always accepted (spec §2): they are door-access monitoring pages. */
export function isAlwaysAcceptedPath(path: string): boolean {
  return path.includes('/monitor/mj/');
}

/** i18n key under which a menu page's title is registered; tabs store this key, so a language switch relabels them. */
export function menuTitleKey(pageId: string): string {
  return `menu:${pageId}`;
}

/** i18n key of a system's label. */
export function systemLabelKey(appNo: string): string {
  return `menu-system:${appNo}`;
}

function hasRight(page: MenuPage, rights: Map<string, Set<string>>): boolean {
  return !page.isFuncRight || page.funcRightPerms.some((id) => rights.get(page.meta.appNo)?.has(id));
}

/** Drops groups (entries without a path) none of whose descendants is left. */
function withoutEmptyGroups(pages: MenuPage[]): MenuPage[] {
  const childrenOf = new Map<string, MenuPage[]>();
  for (const page of pages) {
    if (page.meta.parentId === null) continue;
    const list = childrenOf.get(page.meta.parentId) ?? [];
    list.push(page);
    childrenOf.set(page.meta.parentId, list);
  }
  const keep = new Map<string, boolean>();
  const visible = (page: MenuPage, depth: number): boolean => {
    const known = keep.get(page.id);
    if (known !== undefined) return known;
    const children = childrenOf.get(page.id) ?? [];
    // a group is an entry without a path; it stays only while something below it stays
    const result = page.path ? true : depth < 8 && children.some((child) => visible(child, depth + 1));
    keep.set(page.id, result);
    return result;
  };
  const ids = new Set(pages.map((page) => page.id));
  return pages.filter((page) => visible(page, 0) && (page.meta.parentId === null || ids.has(page.meta.parentId)));
}

/**
 * What the user sees (spec §6): the systems in the permission list; pages of those systems whose function
 * rights the user holds (isFuncRight false: always); groups left empty hidden; and the building monitor
 * (mk) added, with the monitoring pages, when a door-access-monitoring menu exists.
 */
export function filterMenus(data: MenuData, permissions: PermissionEntry[], monitorLabel = 'Building Monitor'): Omit<MenuState, 'loaded'> {
  const allowedApps = new Set(permissions.map((entry) => entry.appCode));
  const rights = new Map(permissions.map((entry) => [entry.appCode, new Set(entry.ids)]));
  let systems = [...data.menuBaseList].filter((system) => allowedApps.has(system.appNo)).sort(bySort);
  const enabled = new Set(systems.map((system) => system.appNo));
  let pages = withoutEmptyGroups(
    [...data.menuList].filter((page) => enabled.has(page.meta.appNo)).filter((page) => hasRight(page, rights)).sort(bySort),
  );

  const monitorPages = pages.filter((page) => page.path && isAlwaysAcceptedPath(page.path));
  if (!enabled.has(buildingMonitor.appNo) && monitorPages.length > 0) {
    const doorAccess = systems.find((system) => system.appNo === 'mj');
    const catalogued = data.menuBaseList.find((system) => system.appNo === buildingMonitor.appNo);
    systems = [
      ...systems,
      catalogued ?? {
        id: buildingMonitor.appNo,
        appNo: buildingMonitor.appNo,
        appId: buildingMonitor.appNo,
        frontRoutingAddr: buildingMonitor.frontRoutingAddr,
        label: monitorLabel,
        sortNum: (doorAccess?.sortNum ?? 0) + 1,
      },
    ].sort(bySort);
    // the monitoring pages move to the monitor's side menu, at its top level
    const moved = new Set(monitorPages.map((page) => page.id));
    pages = withoutEmptyGroups(
      pages.map((page) => (moved.has(page.id) ? { ...page, meta: { ...page.meta, appNo: buildingMonitor.appNo, parentId: null } } : page)),
    );
  }
  return { systems, pages, permissions };
}

/**
 * Registers the menu titles of one language as i18n keys (namespaces `menu` and `menu-system`), overwriting
 * earlier ones. Titles of pages the user lost stay registered but unused: their tabs are dropped.
 */
function registerMenuTitles(language: LanguageCode, pages: MenuPage[], systems: MenuSystem[]): void {
  const bundles = {
    menu: Object.fromEntries(pages.map((page) => [page.id, page.title])),
    'menu-system': Object.fromEntries(systems.map((system) => [system.appNo, system.label])),
  };
  for (const [namespace, titles] of Object.entries(bundles)) i18n.addResourceBundle(language, namespace, titles, true, true);
}

export interface FetchedMenus {
  language: LanguageCode;
  data: MenuData;
  permissions: PermissionEntry[];
}

/** GetMenu + GetPermission in `language`, nothing stored (the post-login flow fetches them beside the licence check). */
export async function fetchMenus(language: LanguageCode = currentLanguage()): Promise<FetchedMenus> {
  const [data, permissions] = await Promise.all([
    apiGet<MenuData>(apiPaths.menus, undefined, { language }),
    apiGet<PermissionEntry[]>(apiPaths.permissions, undefined, { language }),
    // applyMenus names some entries in this language: its texts come with the menus
    loadLanguage(language),
  ]);
  return {
    language,
    data: { menuBaseList: data?.menuBaseList ?? [], menuList: data?.menuList ?? [] },
    permissions: Array.isArray(permissions) ? permissions : [],
  };
}

/** Stores fetched menus: menu info and enabled systems, titles as i18n keys, the store marked loaded. */
export function applyMenus(fetched: FetchedMenus): MenuState {
  const { language } = fetched;
  const filtered = filterMenus(fetched.data, fetched.permissions, i18n.t('layout.buildingMonitor', { lng: language }));
  storage.menuInfo.set({ menuBaseList: filtered.systems, menuList: filtered.pages });
  storage.enabledSystems.set(filtered.systems.map((system) => system.appNo));
  registerMenuTitles(language, filtered.pages, filtered.systems);
  const state: MenuState = { loaded: true, ...filtered };
  useMenuStore.setState(state);
  return state;
}

/** Fetches and stores the menus and permissions in `language` (the stored one by default). */
export async function loadMenus(language: LanguageCode = currentLanguage()): Promise<MenuState> {
  return applyMenus(await fetchMenus(language));
}

export function resetMenus(): void {
  useMenuStore.setState({ ...empty });
}

/** The routable page of a menu path (trailing slash and query ignored). */
export function findMenuPage(pages: MenuPage[], path: string): MenuPage | undefined {
  const target = normalisePath(path);
  return pages.find((page) => page.path !== '' && normalisePath(page.path) === target);
}

/** The system a path belongs to: the system of its menu page, else its sub-app root /{frontRoutingAddr}/, else its first segment. */
export function systemForPath(systems: MenuSystem[], path: string, pages: MenuPage[] = []): MenuSystem | undefined {
  const page = findMenuPage(pages, path);
  if (page) {
    const owner = systems.find((system) => system.appNo === page.meta.appNo);
    if (owner) return owner;
  }
  const normalised = normalisePath(path);
  const byRoot = systems
    .filter((system) => system.frontRoutingAddr && normalised.startsWith(`/${trimSlashes(system.frontRoutingAddr)}/`))
    // the longest root wins: /monitor/mj/ before a hypothetical /monitor/
    .sort((a, b) => b.frontRoutingAddr.length - a.frontRoutingAddr.length)[0];
  if (byRoot) return byRoot;
  const segment = firstSegment(path);
  return systems.find((system) => system.appNo === segment || trimSlashes(system.frontRoutingAddr) === segment);
}

/** The first page of a system that can be opened (lowest sortNum). */
export function firstPageOf(pages: MenuPage[], appNo: string): MenuPage | undefined {
  return pages.find((page) => page.meta.appNo === appNo && page.path && page.path !== '/home');
}

export function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

import { create } from 'zustand';
import type { MenuData, MenuPage, MenuSystem, PermissionEntry } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from './request.ts';
import * as storage from './storage.ts';
import { firstSegment, normalisePath } from './paths.ts';

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

/** Keeps the systems the user holds a permission for and the pages whose function rights the user has. */
export function filterMenus(data: MenuData, permissions: PermissionEntry[]): Omit<MenuState, 'loaded'> {
  const allowedApps = new Set(permissions.map((entry) => entry.appCode));
  const rights = new Map(permissions.map((entry) => [entry.appCode, new Set(entry.ids)]));
  const systems = [...data.menuBaseList].filter((system) => allowedApps.has(system.appNo)).sort(bySort);
  const enabled = new Set(systems.map((system) => system.appNo));
  const pages = [...data.menuList]
    .filter((page) => enabled.has(page.meta.appNo))
    .filter((page) => !page.isFuncRight || page.funcRightPerms.some((id) => rights.get(page.meta.appNo)?.has(id)))
    .sort(bySort);
  return { systems, pages, permissions };
}

/** GetMenu + GetPermission; stores the menu info and enabled systems and marks the menus loaded. */
export async function loadMenus(): Promise<MenuState> {
  const [data, permissions] = await Promise.all([
    apiGet<MenuData>(apiPaths.menus),
    apiGet<PermissionEntry[]>(apiPaths.permissions),
  ]);
  const filtered = filterMenus(
    { menuBaseList: data?.menuBaseList ?? [], menuList: data?.menuList ?? [] },
    Array.isArray(permissions) ? permissions : [],
  );
  storage.menuInfo.set({ menuBaseList: filtered.systems, menuList: filtered.pages });
  storage.enabledSystems.set(filtered.systems.map((system) => system.appNo));
  const state: MenuState = { loaded: true, ...filtered };
  useMenuStore.setState(state);
  return state;
}

export function resetMenus(): void {
  useMenuStore.setState({ ...empty });
}

/** The routable page of a menu path (trailing slash and query ignored). */
export function findMenuPage(pages: MenuPage[], path: string): MenuPage | undefined {
  const target = normalisePath(path);
  return pages.find((page) => normalisePath(page.path) === target);
}

/** Paths containing /monitor/mj/ are always accepted (spec §2). */
export function isAlwaysAcceptedPath(path: string): boolean {
  return path.includes('/monitor/mj/');
}

/** The system a path belongs to: its sub-app root /{frontRoutingAddr}/ or its first segment. */
export function systemForPath(systems: MenuSystem[], path: string): MenuSystem | undefined {
  const byRoot = systems.find((system) => system.frontRoutingAddr && normalisePath(path).startsWith(`/${trimSlashes(system.frontRoutingAddr)}/`));
  if (byRoot) return byRoot;
  const segment = firstSegment(path);
  return systems.find((system) => system.appNo === segment || trimSlashes(system.frontRoutingAddr) === segment);
}

/** The first side-menu page of a system (lowest sortNum). */
export function firstPageOf(pages: MenuPage[], appNo: string): MenuPage | undefined {
  return pages.find((page) => page.meta.appNo === appNo && page.path && page.path !== '/home');
}

export function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

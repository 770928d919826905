import type { MenuPage } from '@campus/contracts';
import { isAlwaysAcceptedPath, menuTitleKey } from '../../lib/menus.ts';

/** The side menu shows three levels (spec §2). */
export const sideMenuDepth = 3;

export interface SideNode {
  id: string;
  /** '' for a group. */
  path: string;
  titleKey: string;
  children: SideNode[];
}

/** The inline side menu of one system: its side pages as a tree of up to three levels, in sortNum order. */
export function sideMenuTree(pages: MenuPage[], appNo: string): SideNode[] {
  const own = pages.filter((page) => page.meta.appNo === appNo && page.meta.isSide);
  const ids = new Set(own.map((page) => page.id));
  const build = (parentId: string | null, depth: number): SideNode[] =>
    own
      .filter((page) => (parentId === null ? page.meta.parentId === null || !ids.has(page.meta.parentId) : page.meta.parentId === parentId))
      .map((page) => ({
        id: page.id,
        path: page.path,
        titleKey: menuTitleKey(page.id),
        children: depth < sideMenuDepth ? build(page.id, depth + 1) : [],
      }))
      // a group with nothing left under it is hidden
      .filter((node) => node.path !== '' || node.children.length > 0);
  return build(null, 1);
}

/** The ids from the root down to the node with `id` (the side menu opens them). */
export function ancestorsOf(tree: SideNode[], id: string): string[] {
  for (const node of tree) {
    if (node.id === id) return [];
    const below = ancestorsOf(node.children, id);
    if (below.length > 0 || node.children.some((child) => child.id === id)) return [node.id, ...below];
  }
  return [];
}

/** System types whose audit pages live in the separate audit application (spec §2, §9). */
export const auditAppSystemTypes: readonly number[] = [13, 21];
/** Where the separate audit application is served; its pages keep their menu path below it. */
export const auditAppBase = '/audit-app';

export function isAuditPath(path: string): boolean {
  return path.includes('/audit/');
}

export type MenuTarget = { kind: 'route'; to: string } | { kind: 'window'; url: string };

/**
 * Where a side-menu item goes: monitoring pages (the monitor path, /mj-gk/, /pfs-gk/) open in a new window;
 * audit pages open in the separate audit app on system types 13 and 21; everything else is routed.
 */
export function menuItemTarget(path: string, mjSystem: number): MenuTarget {
  if (isAlwaysAcceptedPath(path) || path.includes('/mj-gk/') || path.includes('/pfs-gk/')) return { kind: 'window', url: path };
  if (isAuditPath(path) && auditAppSystemTypes.includes(mjSystem)) return { kind: 'window', url: `${auditAppBase}${path}` };
  return { kind: 'route', to: path };
}

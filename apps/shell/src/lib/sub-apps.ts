import { create } from 'zustand';
import type { MenuPage, SubAppEntry } from '@campus/contracts';
import { findMenuPage, isAlwaysAcceptedPath } from './menus.ts';

/**
 * The sub-applications of this deployment (spec §1, DESIGN §8), as the host registers them: systems that share
 * an entry folder (xt with qy, tk with mj) are one application. Pure rules here; the qiankun calls live in
 * features/sub-apps.
 */
export interface SubAppDefinition {
  /** The entry folder (`qy`, `monitor/mj`, `tc`): unique, and the application's name for the loader. */
  name: string;
  /** URL of the folder holding the entry's index.html. */
  entry: string;
  /** The route base (`/qy/`, `/monitor/mj/`), or '' for a system with an empty base path (tc). */
  basePath: string;
  /** System codes served by this application. */
  appNos: string[];
  /** Whether its entry is installed (see SubAppEntry.installed): only installed applications are prefetched. */
  installed: boolean;
}

/** The element the applications mount into; the layout keeps it mounted. */
export const subAppContainerId = 'subapp-viewport';

/** Groups the registry by entry folder; a folder's entry is its owner's (the system named like the folder). */
export function groupRegistry(entries: SubAppEntry[]): SubAppDefinition[] {
  const byFolder = new Map<string, SubAppDefinition>();
  for (const row of entries) {
    const known = byFolder.get(row.folder);
    if (known) {
      known.appNos.push(row.appNo);
      if (row.appNo === row.folder) {
        known.entry = row.entry;
        known.installed = row.installed;
      }
      continue;
    }
    byFolder.set(row.folder, {
      name: row.folder,
      entry: row.entry,
      basePath: row.frontRoutingAddr ? `/${row.frontRoutingAddr}/` : '',
      appNos: [row.appNo],
      installed: row.installed,
    });
  }
  return [...byFolder.values()];
}

/** True when `path` is under one of `base`'s pages (a page path itself or anything below it). */
function underPagePath(path: string, pagePath: string): boolean {
  return path === pagePath || path.startsWith(pagePath.endsWith('/') ? pagePath : `${pagePath}/`);
}

/**
 * Whether `app` serves `path`. A base path claims everything under it; an application with an empty base
 * path (tc) claims only its own systems' menu pages, so it never swallows the shell's routes.
 */
export function servesPath(app: SubAppDefinition, path: string, pages: MenuPage[]): boolean {
  if (app.basePath) return path.startsWith(app.basePath);
  return pages.some((page) => page.path !== '' && app.appNos.includes(page.meta.appNo) && underPagePath(path, page.path));
}

/**
 * The application to mount for `path`, given the user's (already filtered) pages: none for report pages (their
 * frame shows instead) and none for paths the user may not open; paths containing /monitor/mj/ are always
 * accepted (spec §2). Prefers a base-path application over the empty-base one.
 */
export function subAppForPath(apps: SubAppDefinition[], path: string, pages: MenuPage[]): SubAppDefinition | undefined {
  const page = findMenuPage(pages, path);
  if (page?.meta.frameUrl) return undefined;
  const app = apps.find((candidate) => candidate.basePath && servesPath(candidate, path, pages)) ?? apps.find((candidate) => !candidate.basePath && servesPath(candidate, path, pages));
  if (!app) return undefined;
  const allowed = isAlwaysAcceptedPath(path) || pages.some((candidate) => app.appNos.includes(candidate.meta.appNo) && candidate.path !== '' && underPagePath(path, candidate.path));
  return allowed ? app : undefined;
}

/**
 * Why an application is not showing: not installed, its server not answering, refused by the content policy,
 * failed to start, built for another shell (`incompatible`), or failed after it had mounted (`crashed`).
 */
export type SubAppFailure = 'not-installed' | 'unreachable' | 'blocked' | 'broken' | 'incompatible' | 'crashed';

/** `params`: what the failure's text names (the sub-app and its version, the SDK versions). */
export type SubAppPhase =
  | { phase: 'loading' }
  | { phase: 'mounted' }
  | { phase: 'failed'; failure: SubAppFailure; detail: string; params?: Record<string, string> };

export interface SubAppState {
  /** null until the registry is loaded. */
  apps: SubAppDefinition[] | null;
  registryFailed: boolean;
  /** Per application name; absent means not mounted and not loading. */
  phases: Record<string, SubAppPhase>;
}

/** What the host reports and the content area shows. */
export const useSubAppStore = create<SubAppState>(() => ({ apps: null, registryFailed: false, phases: {} }));

export function setSubAppPhase(name: string, phase: SubAppPhase | null): void {
  useSubAppStore.setState((state) => {
    const phases = { ...state.phases };
    if (phase) phases[name] = phase;
    else delete phases[name];
    return { phases };
  });
}

/** A mounted application failed (it reported it): ignored when it is not the mounted one any more. */
export function setSubAppCrashed(name: string, detail: string, params: Record<string, string>): void {
  if (useSubAppStore.getState().phases[name]?.phase !== 'mounted') return;
  setSubAppPhase(name, { phase: 'failed', failure: 'crashed', detail, params });
}

/** Forgets the registry and every phase (tests; the loader itself keeps its registrations for the page view). */
export function resetSubApps(): void {
  useSubAppStore.setState({ apps: null, registryFailed: false, phases: {} });
}

/**
 * Whether a sub-app may send the user to `path` of system `appNo` (spec §6: only systems enabled for the user):
 * the system must be one of the user's, and the path a same-origin path of one of that system's pages (or a
 * door-access monitoring path for the building monitor).
 */
export function mayNavigate(enabledAppNos: string[], pages: MenuPage[], appNo: string, path: string): boolean {
  if (!enabledAppNos.includes(appNo)) return false;
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  const pathname = path.split(/[?#]/)[0] ?? path;
  if (appNo === 'mk' && isAlwaysAcceptedPath(pathname)) return true;
  return pages.some((page) => page.meta.appNo === appNo && page.path !== '' && underPagePath(pathname, page.path));
}

import type { MenuPage, MenuSystem } from '@campus/contracts';
import { defaultHomePath } from '@campus/contracts';
import { decodeTarget, homePath, normalisePath, safeRedirectTarget } from './paths.ts';
import { findMenuPage, firstPageOf, isAlwaysAcceptedPath, systemForPath } from './menus.ts';

export interface HomeInput {
  toPath: string | null;
  isOut: string | null;
  systems: MenuSystem[];
  pages: MenuPage[];
}

export type HomeDecision =
  | { kind: 'open-window'; url: string }
  | { kind: 'navigate'; to: string; appNo: string | null; pagePath: string | null }
  /** Nothing to enter (no systems): stay on /home. */
  | { kind: 'stay' };

function firstPageOrDefault(pages: MenuPage[], system: MenuSystem | undefined): HomeDecision {
  const page = system ? firstPageOf(pages, system.appNo) : undefined;
  if (page) return { kind: 'navigate', to: page.path, appNo: page.meta.appNo, pagePath: page.path };
  const fallback = findMenuPage(pages, defaultHomePath);
  if (fallback) return { kind: 'navigate', to: fallback.path, appNo: fallback.meta.appNo, pagePath: fallback.path };
  const first = pages.find((candidate) => candidate.path && normalisePath(candidate.path) !== homePath);
  if (first) return { kind: 'navigate', to: first.path, appNo: first.meta.appNo, pagePath: first.path };
  return { kind: 'stay' };
}

/** What /home does with toPath and isOut (spec §2 "Home"). */
export function decideHome(input: HomeInput): HomeDecision {
  const target = input.toPath ? safeRedirectTarget(decodeTarget(input.toPath)) : null;
  if (input.isOut === 'true') {
    return target ? { kind: 'open-window', url: target } : { kind: 'stay' };
  }
  if (!target) return firstPageOrDefault(input.pages, input.systems.find((s) => s.appNo === 'qy') ?? input.systems[0]);

  const path = normalisePath(target);
  const page = path !== homePath ? findMenuPage(input.pages, path) : undefined;
  if (page) return { kind: 'navigate', to: target, appNo: page.meta.appNo, pagePath: page.path };
  if (isAlwaysAcceptedPath(path)) return { kind: 'navigate', to: target, appNo: null, pagePath: null };

  // a sub-app root /{frontRoutingAddr}/ or, failing that, the first path segment names the system
  return firstPageOrDefault(input.pages, systemForPath(input.systems, path));
}

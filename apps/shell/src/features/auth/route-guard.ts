import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import * as storage from '../../lib/storage.ts';
import { findMenuPage, isAlwaysAcceptedPath, loadMenus, useMenuStore } from '../../lib/menus.ts';
import { errorWithMessage, homePath, loginPath, normalisePath } from '../../lib/paths.ts';
import { decideHome } from '../../lib/home-decision.ts';
import { currentLanguage, firstLanguageReady, i18n } from '../../lib/i18n.ts';
import { prefetchLayoutData } from '../../lib/layout-data.ts';
import { nextTask } from '../../lib/next-task.ts';
import { decideAfterMenus, decideGuard, type GuardDecision } from './guard-decision.ts';

/**
 * The route guard as a data-router loader on the root route (it runs before every navigation).
 * `staticPaths` are the main-level routes; menu paths become routable once the menus are loaded.
 */
export function createGuardLoader(staticPaths: readonly string[]) {
  const fixed = new Set(staticPaths.map(normalisePath));
  const isKnownPath = (pathname: string): boolean => {
    const path = normalisePath(pathname);
    if (fixed.has(path) || isAlwaysAcceptedPath(path)) return true;
    return Boolean(findMenuPage(useMenuStore.getState().pages, path));
  };

  return async function guardLoader({ request }: LoaderFunctionArgs): Promise<Response | null> {
    const url = new URL(request.url);
    const fullPath = `${url.pathname}${url.search}${url.hash}`;
    let decision: GuardDecision = decideGuard({
      pathname: url.pathname,
      fullPath,
      signedIn: storage.isSignedIn(),
      licenceAbnormal: storage.licenceAbnormal.get(),
      menusLoaded: useMenuStore.getState().loaded,
    });

    if (decision.kind !== 'redirect' && decision.clearCurrentPage) {
      storage.currentMenu.set(null);
      storage.currentPage.set(null);
    }

    if (decision.kind === 'load-menus') {
      try {
        // what the layout shows besides the menus comes with them (lib/layout-data.ts); its failure is the layout's.
        // The calls start in a task of their own: starting five requests costs the main thread, and on a page's
        // first load the guard runs in the task that made the router, one long task on a phone (issue 27)
        await nextTask();
        await Promise.all([loadMenus(), prefetchLayoutData(currentLanguage())]);
      } catch {
        // a 401 or sign-out code has cleared the session: back to login; anything else: say so
        if (!storage.isSignedIn()) return redirect(loginPath);
        // the guard may run before the first language's texts are in (main.tsx renders after them)
        await firstLanguageReady;
        return redirect(errorWithMessage(i18n.t('errors.menuLoadFailed')));
      }
      decision = decideAfterMenus(url.pathname, isKnownPath);
    }

    if (decision.kind === 'redirect') return redirect(decision.to);
    if (decision.kind === 'proceed' && decision.rememberPath) storage.previousPath.set(fullPath);

    // /home decides where to go (spec §2 "Home"); deciding here, before anything renders, saves the layout
    // a render on the way. Opening a new window and the licence notice are left to the home page.
    if (normalisePath(url.pathname) === homePath && storage.isSignedIn() && !storage.licenceAbnormal.get()) {
      const { systems, pages, loaded } = useMenuStore.getState();
      const home = loaded ? decideHome({ toPath: url.searchParams.get('toPath'), isOut: url.searchParams.get('isOut'), systems, pages }) : null;
      if (home?.kind === 'navigate') {
        storage.currentMenu.set(home.appNo);
        storage.currentPage.set(home.pagePath);
        return redirect(home.to);
      }
    }
    return null;
  };
}

/** Revalidate the guard on every navigation, not only when the root's params change. */
export function alwaysRevalidate(): boolean {
  return true;
}

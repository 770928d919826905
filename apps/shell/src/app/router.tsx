import type { ComponentType, ReactElement } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';
import { alwaysRevalidate, createGuardLoader } from '../features/auth/route-guard.ts';
import { registerWarmUp } from '../lib/warm-up.ts';
import { nextTask } from '../lib/next-task.ts';
import { registerCurrentPath, registerNavigate } from '../lib/request.ts';
import { RouterPageNavigation } from '../lib/router-page-navigation.tsx';
import { PageSpinner } from '../lib/loading-spinner.tsx';

/**
 * Each of the signed-in layout's chunks is asked for in a task of its own: asking for a chunk adds a preload link
 * for each file it imports, and all of them at once with the first calls made one long task on a phone's first
 * load of the layout (issue 27).
 */
const inItsOwnTask =
  <T,>(load: () => Promise<T>) =>
  () =>
    nextTask().then(load);
const loadAntdRoot = inItsOwnTask(() => import('./antd-root.tsx'));
const loadSignedInLayout = inItsOwnTask(() => import('./signed-in-layout.tsx'));
const loadHomePage = inItsOwnTask(() => import('../features/layout/home-page.tsx'));
const loadMenuPage = inItsOwnTask(() => import('../features/layout/menu-page.tsx'));
/** The shell's own pages inside the layout (not a sub-system's menu): the tenant administrator's screens. */
const layoutPageRoutes: RouteObject[] = [
  { path: '/identity-providers', lazy: async () => ({ Component: (await import('../features/identity-providers/identity-providers-page.tsx')).default }) },
];
const warmWindow = () => import('../features/sub-apps/sandbox-warm-up.ts').then(({ warmWindowForSandbox }) => warmWindowForSandbox());
// antd's theme derived in a task of its own, so the layout's first render need not
const prepareTheme = () => loadAntdRoot().then(async (antdRoot) => {
  await nextTask();
  antdRoot.prepareTheme();
});
// what the first signed-in page needs, loaded (and the window readied for the sub-apps' sandbox, and antd's theme
// derived) while the login form is being filled in
registerWarmUp(loadAntdRoot, loadSignedInLayout, loadHomePage, loadMenuPage, warmWindow, prepareTheme);

const cardSetup = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });
const withProps =
  <P extends object>(load: () => Promise<{ default: ComponentType<P> }>, props: P) =>
  async () => {
    const { default: Screen } = await load();
    return { Component: () => <Screen {...props} /> };
  };

const systemInit = () => import('../features/card-setup/system-init-page.tsx');
const masterCard = () => import('../features/card-setup/master-card-page.tsx');
const keyCard = () => import('../features/card-setup/key-card-page.tsx');
const createSuperuser = () => import('../features/card-setup/create-superuser-page.tsx');
const swipeLogin = () => import('../features/auth/swipe-login-page.tsx');
const superUserCard = () => import('../features/card-setup/super-user-card-page.tsx');
const cardTables = () => import('../features/card-management/card-management-page.tsx');

/** The card screens of spec §2 (gate deployments; each checks the set-up order itself). */
const cardRoutes: RouteObject[] = [
  { path: '/system-init', lazy: withProps(systemInit, { titleKey: 'cardSetup.screens.systemInit' }) },
  { path: '/key-card-system-init', lazy: withProps(systemInit, { titleKey: 'cardSetup.screens.keyCardSystemInit' }) },
  { path: '/swipe-master-card', lazy: withProps(masterCard, { titleKey: 'cardSetup.screens.swipeMasterCard' }) },
  { path: '/swipe-master-card-gm', lazy: withProps(masterCard, { titleKey: 'cardSetup.screens.swipeMasterCardGm' }) },
  { path: '/key-card-swipe-master-card', lazy: withProps(masterCard, { titleKey: 'cardSetup.screens.keyCardSwipeMasterCard' }) },
  { path: '/key-card-swipe-master-card-gm', lazy: withProps(masterCard, { titleKey: 'cardSetup.screens.keyCardSwipeMasterCardGm' }) },
  { path: '/swiper-sys-secret', lazy: withProps(keyCard, { titleKey: 'cardSetup.screens.swiperSysSecret' }) },
  { path: '/key-card-swiper-sys-secret', lazy: withProps(keyCard, { titleKey: 'cardSetup.screens.keyCardSwiperSysSecret' }) },
  { path: '/create-superuser', lazy: withProps(createSuperuser, { titleKey: 'cardSetup.screens.createSuperuser' }) },
  { path: '/key-card-create-superuser', lazy: withProps(createSuperuser, { titleKey: 'cardSetup.screens.keyCardCreateSuperuser' }) },
  { path: '/swipe-login', lazy: withProps(swipeLogin, { titleKey: 'cardSetup.screens.swipeLogin' }) },
  { path: '/key-card-swipe-login', lazy: withProps(swipeLogin, { titleKey: 'cardSetup.screens.keyCardSwipeLogin' }) },
  { path: '/pwd-swipe-login', lazy: cardSetup(() => import('../features/auth/pwd-swipe-login-page.tsx')) },
  { path: '/select-func', lazy: cardSetup(() => import('../features/card-setup/select-func-page.tsx')) },
  { path: '/re-swipe-sys-sceret', lazy: cardSetup(() => import('../features/card-setup/re-swipe-page.tsx')) },
  { path: '/systemadmin-logincard', lazy: withProps(cardTables, { kind: 'adminCards' as const }) },
  { path: '/system-keycard', lazy: withProps(cardTables, { kind: 'keyCards' as const }) },
  { path: '/super-user-card', lazy: cardSetup(superUserCard) },
];

/** Pages without antd: the login page is most visits' first load. */
const plainRoutes: RouteObject[] = [
  { path: '/login', lazy: async () => ({ Component: (await import('../features/auth/login-page.tsx')).default }) },
  { path: '/not-login', lazy: async () => ({ Component: (await import('../features/auth/not-login-page.tsx')).default }) },
];

/** Main-level pages inside the antd root (antd locale, App context, react-query). */
const pageRoutes: RouteObject[] = [
  { path: '/error', lazy: async () => ({ Component: (await import('../features/errors/error-page.tsx')).default }) },
  { path: '/not-find', lazy: async () => ({ Component: (await import('../features/errors/not-found-page.tsx')).default }) },
  { path: '/tools', lazy: async () => ({ Component: (await import('../features/tools/tools-page.tsx')).default }) },
  ...cardRoutes,
];

/** Every main-level path of the route table (spec §2); menu paths are added from the user's menus. */
export const staticPaths: string[] = ['/', '/home', ...[...plainRoutes, ...pageRoutes, ...layoutPageRoutes].map((route) => route.path!)];

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: createGuardLoader(staticPaths),
    shouldRevalidate: alwaysRevalidate,
    HydrateFallback: PageSpinner,
    Component: RouterPageNavigation,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      ...plainRoutes,
      {
        lazy: async () => {
          // opened or reloaded on an antd page (no warm-up before it): the theme is derived in a task of its own while
          // the guard's calls are under way, instead of inside the page's first render (issue 27)
          void prepareTheme().catch(() => undefined);
          return { Component: (await loadAntdRoot()).AntdRoot };
        },
        children: [
          ...pageRoutes,
          {
            // the main layout; the catch-all child resolves menu paths against the loaded menu list
            lazy: async () => ({ Component: (await loadSignedInLayout()).default }),
            children: [
              { path: '/home', lazy: async () => ({ Component: (await loadHomePage()).default }) },
              ...layoutPageRoutes,
              { path: '*', lazy: async () => ({ Component: (await loadMenuPage()).default }) },
            ],
          },
        ],
      },
    ],
  },
];

/** The router, from the page's current address (it starts loading that page's code at once). */
export function createAppRouter() {
  return createBrowserRouter(routes);
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/** The router's pages, shown; from then on the request layer's redirects (a 401: back to login) go through it. */
export function routedPages(router: AppRouter): ReactElement {
  registerNavigate((to) => router.navigate(to, { replace: true }));
  registerCurrentPath(() => router.state.location.pathname);
  return <RouterProvider router={router} />;
}

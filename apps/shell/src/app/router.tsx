import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { alwaysRevalidate, createGuardLoader } from '../features/auth/route-guard.ts';
import type { CardScreen } from '../features/card-setup/card-placeholder.tsx';
import { registerWarmUp } from '../lib/warm-up.ts';

const loadAntdRoot = () => import('./antd-root.tsx');
const loadSignedInLayout = () => import('./signed-in-layout.tsx');
const loadHomePage = () => import('../features/layout/home-page.tsx');
const loadMenuPage = () => import('../features/layout/menu-page.tsx');
// what the first signed-in page needs, loaded while the login form is being filled in
registerWarmUp(loadAntdRoot, loadSignedInLayout, loadHomePage, loadMenuPage);

function PageSpinner() {
  return (
    <div className="campus-centered" aria-busy="true">
      <span className="campus-spinner campus-spinner--dark" aria-hidden="true" />
    </div>
  );
}

/** Card screens of spec §2: built in a later issue, a placeholder for now. */
const cardRoutes: [string, CardScreen][] = [
  ['/swipe-login', 'swipeLogin'],
  ['/pwd-swipe-login', 'pwdSwipeLogin'],
  ['/system-init', 'systemInit'],
  ['/create-superuser', 'createSuperuser'],
  ['/swiper-sys-secret', 'swiperSysSecret'],
  ['/swipe-master-card', 'swipeMasterCard'],
  ['/swipe-master-card-gm', 'swipeMasterCardGm'],
  ['/systemadmin-logincard', 'systemadminLogincard'],
  ['/system-keycard', 'systemKeycard'],
  ['/key-card-swiper-sys-secret', 'keyCardSwiperSysSecret'],
  ['/key-card-create-superuser', 'keyCardCreateSuperuser'],
  ['/key-card-swipe-login', 'keyCardSwipeLogin'],
  ['/key-card-system-init', 'keyCardSystemInit'],
  ['/key-card-swipe-master-card', 'keyCardSwipeMasterCard'],
  ['/key-card-swipe-master-card-gm', 'keyCardSwipeMasterCardGm'],
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
  ...cardRoutes.map(
    ([path, screen]): RouteObject => ({
      path,
      lazy: async () => {
        const { default: CardPlaceholder } = await import('../features/card-setup/card-placeholder.tsx');
        return { Component: () => <CardPlaceholder screen={screen} /> };
      },
    }),
  ),
];

/** Every main-level path of the route table (spec §2); menu paths are added from the user's menus. */
export const staticPaths: string[] = ['/', '/home', ...[...plainRoutes, ...pageRoutes].map((route) => route.path!)];

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: createGuardLoader(staticPaths),
    shouldRevalidate: alwaysRevalidate,
    HydrateFallback: PageSpinner,
    Component: Outlet,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      ...plainRoutes,
      {
        lazy: async () => ({ Component: (await loadAntdRoot()).AntdRoot }),
        children: [
          ...pageRoutes,
          {
            // the main layout; the catch-all child resolves menu paths against the loaded menu list
            lazy: async () => ({ Component: (await loadSignedInLayout()).default }),
            children: [
              { path: '/home', lazy: async () => ({ Component: (await loadHomePage()).default }) },
              { path: '*', lazy: async () => ({ Component: (await loadMenuPage()).default }) },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

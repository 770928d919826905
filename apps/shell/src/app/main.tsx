// first: sets the stored language on i18n and <html lang> before anything renders (no paint in another language)
import { firstLanguageReady } from '../lib/i18n.ts';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './providers.tsx';
import { registerCurrentPath, registerNavigate, registerNotifier } from '../lib/request.ts';
import { staticNotifier } from '../lib/notifier.ts';
import { installChunkRecovery } from '../lib/chunk-recovery.ts';
import { registerWarmUp } from '../lib/warm-up.ts';
import { nextTask } from '../lib/next-task.ts';
import { isSignedIn } from '../lib/storage.ts';
import { loginPath, normalisePath } from '../lib/paths.ts';
import { PageNavigationProvider, type PageNavigation } from '../lib/page-navigation.tsx';
import type { AppRouter } from './router.tsx';
import './global.css';

registerNotifier(staticNotifier);
installChunkRecovery();

const root = createRoot(document.getElementById('root')!);
const show = (page: ReactNode) =>
  root.render(
    <StrictMode>
      <Providers>{page}</Providers>
    </StrictMode>,
  );

// the route table, the guard and React Router: about a fifth of what the login page would otherwise load first
const loadRouter = () => import('./router.tsx');

/**
 * /login opened signed out, most visits' first load: the login page starts without the router. The router is
 * loaded and made while the form is filled in (the warm-up); when the page is left, it loads the next page while
 * the login page stays on screen, then takes over (no spinner between the two).
 */
async function showStandaloneLogin(): Promise<void> {
  let router: Promise<{ routedPages: (router: AppRouter) => ReactNode; router: AppRouter }> | null = null;
  const readyRouter = () => (router ??= loadRouter().then(({ createAppRouter, routedPages }) => ({ routedPages, router: createAppRouter() })));
  let leaving = false;
  const leave: PageNavigation['navigate'] = (to, options) => {
    if (leaving) return;
    leaving = true;
    readyRouter().then(
      async (routed) => {
        await routed.router.navigate(to, { replace: options?.replace });
        show(routed.routedPages(routed.router));
      },
      () => {
        // the chunk recovery reloads the page for a new deployment; otherwise the next click tries again
        router = null;
        leaving = false;
      },
    );
  };
  registerNavigate((to) => leave(to, { replace: true }));
  registerCurrentPath(() => window.location.pathname);
  registerWarmUp(readyRouter);
  const navigation: PageNavigation = { navigate: leave, search: new URLSearchParams(window.location.search) };
  const [{ default: LoginPage }] = await Promise.all([import('../features/auth/login-page.tsx'), firstLanguageReady]);
  show(
    <PageNavigationProvider value={navigation}>
      <LoginPage />
    </PageNavigationProvider>,
  );
}

async function showRoutedPage(): Promise<void> {
  // the router begins loading the first page's code as soon as it is in; the first paint waits for the texts as well.
  // The router's module is evaluated in one task and the router made in the next: together they were one long task
  // on a phone (issue 27)
  const [page] = await Promise.all([
    loadRouter().then(async ({ createAppRouter, routedPages }) => {
      await nextTask();
      return routedPages(createAppRouter());
    }),
    firstLanguageReady,
  ]);
  show(page);
}

void (normalisePath(window.location.pathname) === loginPath && !isSignedIn() ? showStandaloneLogin() : showRoutedPage());

import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { SubAppEntry } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import { currentLanguage, i18n } from '../../lib/i18n.ts';
import { useMenuStore } from '../../lib/menus.ts';
import * as storage from '../../lib/storage.ts';
import { groupRegistry, setSubAppPhase, subAppContainerId, subAppForPath, useSubAppStore, type SubAppDefinition } from '../../lib/sub-apps.ts';
import { dropStaleDevBrowserCookie, readDevOverride, withDevOverride } from './dev-override.ts';
import { useUserDetail } from '../../lib/user-detail.ts';
import { takeEarly, takeEarlyCall } from '../../lib/layout-data.ts';
import { shellPropsFor, type LiveShell } from './shell-props.ts';
import { reportVersions } from './report-versions.ts';
import { warmWindowForSandbox } from './sandbox-warm-up.ts';
import { afterPaint } from '../../lib/after-paint.ts';
import { nextTask } from '../../lib/next-task.ts';

// the loader is not needed for the layout's first paint: it loads beside the registry
const loadHost = () => import('./qiankun-host.ts');

/** The sign-in whose versions were reported in this page view (user id and sign-in time). */
let reportedSignIn: string | null = null;

function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 5000 });
  else window.setTimeout(task, 1000);
}

/**
 * Runs the sub-app host for the signed-in layout: loads the registry, registers the applications once the
 * user is known, keeps the shared state current, broadcasts language changes and reports versions.
 * `onChangePassword` is what a sub-app's changePwd does (the app layer opens the account feature's dialog).
 */
export function useSubAppHost({ onChangePassword }: { onChangePassword: () => void }): { retryRegistry: () => void } {
  const navigate = useNavigate();
  const user = useUserDetail();
  const registry = useQuery({
    queryKey: ['sub-app-registry'],
    // the sign-in's own call when it is still under way (lib/layout-data.ts), not a second one
    queryFn: () => takeEarlyCall('sub-app-registry', currentLanguage()) ?? apiGet<SubAppEntry[]>(apiPaths.subAppRegistry),
    initialData: () => takeEarly('sub-app-registry', currentLanguage()),
    staleTime: Infinity,
    retry: 1,
  });

  // the loader reads the shared state through this at each mount; the last known user survives a refetch
  const live = useRef<LiveShell>({ user: null, navigate: () => undefined, changePassword: () => undefined });
  live.current.navigate = (to) => void navigate(to);
  live.current.changePassword = onChangePassword;
  if (user.data) live.current.user = user.data;

  // after the layout's first paint (or already on the login page, see app/router.tsx)
  useEffect(() => afterPaint(() => void warmWindowForSandbox()), []);

  const userKnown = Boolean(user.data);
  useEffect(() => {
    const entries = registry.data;
    if (!entries || !userKnown) return;
    // after the layout's first paint: the sub-application's loading state and the loader wait a frame, the
    // signed-in layout does not wait for them (issue 27)
    const register = (apps: SubAppDefinition[]) => {
      useSubAppStore.setState({ apps, registryFailed: false });
      // the loader's module runs when it arrives, and starting it registers and fetches: a task each, so neither
      // blocks the page for long on a phone
      void loadHost().then(async ({ startSubAppHost }) => {
        await nextTask();
        startSubAppHost(
          apps,
          {
            isActive: (app, location) => {
              if (!storage.isSignedIn() || !document.getElementById(subAppContainerId)) return false;
              const current = useSubAppStore.getState().apps ?? [];
              return subAppForPath(current, location.pathname, useMenuStore.getState().pages)?.name === app.name;
            },
            propsFor: (app) => shellPropsFor(app, () => live.current),
            onPhase: setSubAppPhase,
            // the page the user asked for loads afresh, without the application that would not let go
            onLoaderStuck: () => window.location.reload(),
          },
          currentLanguage(),
        );
      });
      const signIn = live.current.user ? `${live.current.user.id}:${live.current.user.loginTime}` : null;
      if (signIn && reportedSignIn !== signIn) {
        reportedSignIn = signIn;
        whenIdle(() => void reportVersions(apps, new URL(window.location.href)));
      }
    };
    return afterPaint(() => {
      // a developer's stored override waits for the server's word on it; without one nothing waits
      if (readDevOverride() === null) {
        dropStaleDevBrowserCookie();
        register(groupRegistry(entries));
      } else void withDevOverride(groupRegistry(entries)).then(register);
    });
  }, [registry.data, userKnown]);

  useEffect(() => {
    if (registry.isError) useSubAppStore.setState({ registryFailed: true });
  }, [registry.isError]);

  useEffect(() => {
    const onLanguage = () => void loadHost().then(({ broadcastToSubApps }) => broadcastToSubApps({ language: currentLanguage() }));
    i18n.on('languageChanged', onLanguage);
    return () => i18n.off('languageChanged', onLanguage);
  }, []);

  const { refetch } = registry;
  const retryRegistry = useCallback(() => {
    useSubAppStore.setState({ registryFailed: false });
    void refetch();
  }, [refetch]);
  return { retryRegistry };
}

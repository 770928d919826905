import { useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App as AntdApp, ConfigProvider, theme as antdTheme, version as antdVersion } from 'antd';
import type { ThemeConfig } from 'antd';
import { Outlet } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { toLanguage } from '@campus/contracts';
import { useTranslation } from '../lib/use-translation.ts';
import { registerNotifier } from '../lib/request.ts';
import { staticNotifier } from '../lib/notifier.ts';
import * as storage from '../lib/storage.ts';
import { skinOf } from '../lib/skins.ts';
import { antdLocales } from '../lib/antd-locales.ts';
import { prefersReducedMotion, usePrefersReducedMotion } from '../lib/reduced-motion.ts';
import { rememberedAlgorithm } from '../lib/remembered-algorithm.ts';
// antd's styles as static files instead of styles computed while rendering (zero-runtime mode): the first render
// after sign-in is several times faster on slow machines. This is the part every signed-in screen needs; the large
// components bring theirs with the screens that use them (vite-plugins/antd-styles.ts)
import 'virtual:antd-styles/base.css';


const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Hands antd's context-aware message API to the request layer while antd pages are shown. */
function NotifierBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => {
    registerNotifier({ error: (text) => void message.error(text) });
    return () => registerNotifier(staticNotifier);
  }, [message]);
  return null;
}

const algorithm = rememberedAlgorithm(antdTheme.defaultAlgorithm, antdVersion);

/** The theme of every antd page: the tenant's skin (spec §2; tenant settings are stored when the login page loads them). */
function shellTheme(reducedMotion: boolean): ThemeConfig {
  const skinTheme = skinOf(storage.tenantSettings.get()?.skin).theme;
  return {
    ...skinTheme,
    algorithm,
    // spec §9: the shell's overlays start at zIndex 3000, above what sub-applications draw
    token: { ...skinTheme.token, motion: !reducedMotion, zIndexPopupBase: 3000 },
    zeroRuntime: true,
    // one name for the theme's CSS variables wherever it is provided (antd names them after the provider's React
    // id otherwise), so the theme derived ahead of time is the one the first page finds (prepareTheme)
    cssVar: { key: 'campus-shell-theme' },
  };
}

/** Holds the derived theme in antd's cache while it is mounted. */
function ThemeHolder() {
  antdTheme.useToken();
  return null;
}

let preparedTheme: Root | null = null;
/** Set once an antd page has provided the theme itself: preparing it then would only hold it for nothing. */
let themeProvided = false;

/**
 * Derives the theme ahead of the first antd page (while the login form is filled in), so that page need not: antd
 * derives it and names it by hashing several hundred tokens, about 8 ms of the click's way to the layout on
 * loopback (issue 27). antd keeps a derived theme while something that uses it is mounted, so a provider out of the
 * page holds it until the first page's own provider has taken it over.
 */
export function prepareTheme(): void {
  if (preparedTheme || themeProvided) return;
  preparedTheme = createRoot(document.createElement('div'));
  preparedTheme.render(
    <ConfigProvider theme={shellTheme(prefersReducedMotion())}>
      <ThemeHolder />
    </ConfigProvider>,
  );
}

function releasePreparedTheme(): void {
  themeProvided = true;
  const prepared = preparedTheme;
  preparedTheme = null;
  // not from inside the page's own commit (React refuses to unmount one root while it renders another)
  if (prepared) setTimeout(() => prepared.unmount(), 0);
}

/** Pathless layout route around every antd page: antd locale and theme, App context, react-query. */
export function AntdRoot() {
  const { i18n } = useTranslation();
  const reducedMotion = usePrefersReducedMotion();
  const theme = shellTheme(reducedMotion);
  // after this provider's first effects: the theme is its own by then
  useEffect(releasePreparedTheme, []);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocales[toLanguage(i18n.language)]} theme={theme} button={{ autoInsertSpace: false }}>
        <AntdApp>
          <NotifierBridge />
          <Outlet />
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

export { queryClient };

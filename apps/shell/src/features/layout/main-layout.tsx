import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Layout, Tooltip } from 'antd';
import { HomeOutlined, MenuOutlined } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { useUserDetail } from '../../lib/user-detail.ts';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { MenuSystem, SystemLogoEntry } from '@campus/contracts';
import { apiPaths, defaultHomePath, localDeviceServicePort, sideNavWidth } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { findMenuPage, firstPageOf, isAlwaysAcceptedPath, menuTitleKey, systemForPath, useMenuStore } from '../../lib/menus.ts';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { LanguagePicker } from '../../lib/language-picker.tsx';
import { homeWithTarget } from '../../lib/paths.ts';
import { skinOf, skinVariables } from '../../lib/skins.ts';
import { headerEntries } from './header-entries.ts';
import { menuItemTarget, type MenuTarget } from './side-menu-tree.ts';
import { TopMenu, useTrackedWidth } from './top-menu.tsx';
import { UserMenu, type CardTable, type UserMenuActions } from './user-menu.tsx';
import { SideMenu } from './side-menu.tsx';
import { PageTabs } from './page-tabs.tsx';
import { NavigationDrawer } from './navigation-drawer.tsx';
import { useCompactScreen } from '../../lib/compact-screen.ts';
import { afterPaint } from '../../lib/after-paint.ts';
import { useOpenedOnce } from '../../lib/use-opened-once.ts';
import { takeEarly } from '../../lib/layout-data.ts';
import { openTab, tabActions, useTabStore } from './tab-store.ts';
import './main-layout.css';

function pickLogo(logos: SystemLogoEntry[] | undefined): SystemLogoEntry | undefined {
  if (!Array.isArray(logos) || logos.length === 0) return undefined;
  const tenant = storage.tenantCode.get();
  return logos.find((logo) => logo.code === tenant) ?? logos[0];
}

/** The card management tables' routes (spec §2). */
const cardTableRoutes: Record<CardTable, string> = { adminCards: '/systemadmin-logincard', keyCards: '/system-keycard' };
/** The shell's own pages inside the layout (app/router.tsx), with their tab titles. */
const shellPages: Record<string, string> = { '/identity-providers': 'layout.identityProviders' };
const shellPageTitle = (path: string): string | undefined => shellPages[path.split(/[?#]/)[0]!];

function openWindow(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/**
 * The page tabs with the current page's tab in the same render that shows the page (the store catches up after
 * it). Only this part follows the tab store: a change of the tabs does not render the whole layout again.
 */
function CurrentPageTabs({ pageTab }: { pageTab: { path: string; titleKey: string } | null }) {
  const storedTabs = useTabStore((state) => state);
  return <PageTabs tabs={pageTab ? openTab(storedTabs, pageTab) : storedTabs} />;
}

/** The user menu's entries that open another feature's dialog: the app layer wires them. */
export type DialogOpeners = Pick<UserMenuActions, 'onChangePassword' | 'onAbout' | 'onBackupLogs'>;

/**
 * The main layout (spec §2): header with logo, systems and user menu; the side menu of the current system;
 * page tabs; and the content area, where the routed view renders and the sub-application viewport stays
 * mounted across route changes. The app layer passes the `viewport`, the `dialogs` and what opens them, and a
 * `headerNotice` shown before the language picker (a developer's sub-app override).
 */
export default function MainLayout({ dialogs, viewport, openers, headerNotice }: { dialogs?: ReactNode; viewport?: ReactNode; openers: DialogOpeners; headerNotice?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const systems = useMenuStore((state) => state.systems);
  const pages = useMenuStore((state) => state.pages);
  const permissions = useMenuStore((state) => state.permissions);
  const language = i18n.language;
  const settings = storage.tenantSettings.get();
  const skin = skinOf(settings?.skin);
  const width = useTrackedWidth();
  // a phone: the systems and the side menu go behind one menu button (issue 27, item 1)
  const compact = useCompactScreen();
  const [navigationOpen, setNavigationOpen] = useState(false);
  // the drawer (and its menus) mounts when first opened: mounting it closed cost the phone layout's first load a
  // second, synchronous render of it
  const navigationOpened = useOpenedOnce(navigationOpen);

  const user = useUserDetail();
  const logos = useQuery({
    queryKey: ['system-logos', language],
    queryFn: () => apiGet<SystemLogoEntry[]>(apiPaths.systemLogos),
    initialData: () => takeEarly('system-logos', language),
    retry: false,
  });
  const logo = pickLogo(logos.data);
  const systemName = logo?.systemName || settings?.systemName || t('app.productName');
  const logoUrl = logo?.systemLogo || settings?.headerLogo || '';

  const page = findMenuPage(pages, location.pathname);
  const currentSystem = systemForPath(systems, location.pathname, pages) ?? systems.find((system) => system.appNo === storage.currentMenu.get());
  const entries = headerEntries({
    permissions,
    isPrivateDeployment: Boolean(settings?.isPrivateDeployment),
    isSystemAdmin: Boolean(user.data?.isSystemAdmin),
    opsPlatformUrl: settings?.opsPlatformUrl ?? '',
  });

  // the tabs of this browser session, re-read after a sign-out elsewhere and re-checked against the menus
  useEffect(() => {
    tabActions.reread();
  }, []);
  useEffect(() => {
    tabActions.retain((path) => Boolean(findMenuPage(pages, path)) || isAlwaysAcceptedPath(path) || shellPageTitle(path) !== undefined);
  }, [pages]);

  const fullPath = `${location.pathname}${location.search}`;
  const ownPageTitle = shellPageTitle(location.pathname);
  const pageTab = page
    ? { path: fullPath, titleKey: menuTitleKey(page.id) }
    : ownPageTitle
      ? { path: fullPath, titleKey: ownPageTitle }
      : isAlwaysAcceptedPath(location.pathname)
      ? { path: fullPath, titleKey: 'layout.monitorPage' }
      : null;
  const pageTabPath = pageTab?.path;
  const pageTabTitle = pageTab?.titleKey;
  useEffect(() => {
    if (pageTabPath && pageTabTitle) tabActions.open({ path: pageTabPath, titleKey: pageTabTitle });
    if (page) {
      storage.currentPage.set(page.path);
      storage.currentMenu.set(page.meta.appNo);
    }
  }, [page, pageTabPath, pageTabTitle]);

  const mjSystem = settings?.mjSystem ?? 1;
  const pageTarget = (path: string) => menuItemTarget(path, mjSystem);
  // a system opens its first page, or /home decides when it has none the user may see
  const systemTarget = (system: MenuSystem): MenuTarget => {
    const first = firstPageOf(pages, system.appNo);
    return first ? pageTarget(first.path) : { kind: 'route', to: homeWithTarget(`/${system.frontRoutingAddr}/`) };
  };
  const quit = async () => {
    await signOut();
    tabActions.reset();
  };

  // after sign-in (the layout's first render) keyboard and screen-reader users start at the page, not the body
  const main = useRef<HTMLElement>(null);
  useEffect(
    () =>
      afterPaint(() => {
        if (document.activeElement === null || document.activeElement === document.body) main.current?.focus({ preventScroll: true });
      }),
    [],
  );

  const name = user.data?.name ?? '';
  const chrome = skin.chrome;
  const skinStyle = skinVariables(skin);
  const pageTitle = pageTab ? t(pageTab.titleKey) : systemName;
  return (
    // below 1000 px the header keeps its module count (spec §2); the names shrink instead, so nothing overflows
    <Layout className="campus-layout" data-skin={skin.code} style={skinStyle}>
      <a
        className="campus-skip-link"
        href="#campus-main"
        onClick={(event) => {
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('layout.skipToContent')}
      </a>
      <Layout.Header className="campus-layout__header" style={{ background: chrome.headerBg, color: chrome.headerText }}>
        {compact ? (
          <Button
            type="text"
            className="campus-layout__menu-button"
            icon={<MenuOutlined />}
            aria-label={t('layout.openNavigation')}
            aria-expanded={navigationOpen}
            aria-haspopup="dialog"
            style={{ color: chrome.headerText }}
            onClick={() => setNavigationOpen(true)}
          />
        ) : null}
        <Link to="/home" className="campus-layout__brand" style={{ color: chrome.headerText }} aria-label={t('layout.goHomeLogo', { name: systemName })}>
          {logoUrl ? <img src={logoUrl} alt="" className="campus-layout__logo" /> : null}
          <span className="campus-layout__system-name" title={systemName}>{systemName}</span>
        </Link>
        {compact ? null : <TopMenu systems={systems} currentAppNo={currentSystem?.appNo ?? null} theme={chrome.menuTheme} width={width} targetOf={systemTarget} />}
        <div className="campus-layout__tools">
          {entries.goHome ? (
            <Tooltip title={t('layout.goHome')}>
              <Button
                type="text"
                icon={<HomeOutlined />}
                aria-label={t('layout.goHome')}
                style={{ color: chrome.headerText }}
                onClick={() => void navigate(defaultHomePath)}
              />
            </Tooltip>
          ) : null}
          {headerNotice}
          <LanguagePicker />
          <UserMenu
            name={name}
            loginTime={user.data?.loginTime}
            entries={entries}
            cardTables={Boolean(user.data?.mayManageCards)}
            identityProviders={Boolean(user.data?.isSystemAdmin)}
            actions={{
              ...openers,
              onDeviceService: () => openWindow(`http://127.0.0.1:${localDeviceServicePort}/`),
              onOpsPlatform: () => {
                if (settings?.opsPlatformUrl) openWindow(settings.opsPlatformUrl);
              },
              onCardTable: (table) => void navigate(cardTableRoutes[table]),
              onIdentityProviders: () => void navigate('/identity-providers'),
              onQuit: () => void quit(),
            }}
          />
        </div>
      </Layout.Header>
      <Layout>
        {compact ? (
          navigationOpened ? (
            <NavigationDrawer
              open={navigationOpen}
              onClose={() => setNavigationOpen(false)}
              systems={systems}
              currentAppNo={currentSystem?.appNo ?? null}
              pages={pages}
              currentPageId={page?.id ?? null}
              systemTarget={systemTarget}
              pageTarget={pageTarget}
              skinStyle={skinStyle}
            />
          ) : null
        ) : (
          <Layout.Sider width={sideNavWidth} theme="light" className="campus-layout__sider" style={{ background: chrome.siderBg }}>
            <SideMenu pages={pages} appNo={currentSystem?.appNo ?? null} currentPageId={page?.id ?? null} targetOf={pageTarget} />
          </Layout.Sider>
        )}
        {/* antd's Content is the page's one <main> landmark */}
        <Layout.Content className="campus-layout__content" id="campus-main" ref={main} tabIndex={-1} aria-labelledby="campus-page-title">
          <h1 id="campus-page-title" className="campus-visually-hidden">
            {pageTitle}
          </h1>
          <CurrentPageTabs pageTab={pageTab} />
          <div className="campus-layout__main">
            <Outlet />
            {/* the sub-application area: it stays in the layout, so a mounted sub-app survives route changes */}
            {viewport}
          </div>
        </Layout.Content>
      </Layout>
      {dialogs}
    </Layout>
  );
}

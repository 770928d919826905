import { Button, Layout } from 'antd';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SystemLogoEntry, UserInfo } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { firstPageOf, useMenuStore } from '../../lib/menus.ts';
import { logout } from '../../lib/session.ts';
import { LanguagePicker } from '../../lib/language-picker.tsx';
import './main-layout.css';

function pickSystemName(logos: SystemLogoEntry[] | undefined): string | null {
  if (!Array.isArray(logos) || logos.length === 0) return null;
  const tenant = storage.tenantCode.get();
  const entry = logos.find((logo) => logo.code === tenant) ?? logos[0];
  return entry?.systemName || null;
}

/** The plain frame after sign-in (the full layout with menus and tabs comes later). */
export default function MainLayout() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const systems = useMenuStore((state) => state.systems);
  const pages = useMenuStore((state) => state.pages);
  const language = i18n.language;

  const user = useQuery({ queryKey: ['user-detail', language], queryFn: () => apiGet<UserInfo>(apiPaths.userDetail), retry: false });
  const logos = useQuery({ queryKey: ['system-logos', language], queryFn: () => apiGet<SystemLogoEntry[]>(apiPaths.systemLogos), retry: false });
  const systemName = pickSystemName(logos.data) ?? storage.tenantSettings.get()?.systemName ?? t('app.productName');

  const quit = async () => {
    await logout();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <Layout className="campus-layout">
      <Layout.Header className="campus-layout__header">
        <NavLink to="/home" className="campus-layout__brand">
          {systemName}
        </NavLink>
        <div className="campus-layout__tools">
          {user.data?.name ? (
            <span className="campus-layout__user" data-testid="user-name">
              {user.data.name}
            </span>
          ) : null}
          <LanguagePicker />
          <Button onClick={() => void quit()}>{t('layout.quit')}</Button>
        </div>
      </Layout.Header>
      <Layout.Content className="campus-layout__content">
        <nav aria-label={t('layout.systems')} className="campus-layout__systems">
          <ul>
            {systems.map((system) => {
              const page = firstPageOf(pages, system.appNo);
              return page ? (
                <li key={system.appNo}>
                  <NavLink to={page.path}>{system.label}</NavLink>
                </li>
              ) : null;
            })}
          </ul>
        </nav>
        <div className="campus-layout__main">
          <Outlet />
          {/* sub-apps mount here later; it stays in the layout so it survives route changes */}
          <div id="subapp-viewport" />
        </div>
      </Layout.Content>
    </Layout>
  );
}

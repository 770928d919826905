import { Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { TenantSettings } from '@campus/contracts';
import { apiPaths, isGateSystem } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import { randomId } from '../../lib/crypto.ts';
import * as storage from '../../lib/storage.ts';

/** The card screens of spec §2; each has a title key `cardSetup.screens.<id>`. */
export type CardScreen =
  | 'swipeLogin'
  | 'pwdSwipeLogin'
  | 'systemInit'
  | 'createSuperuser'
  | 'swiperSysSecret'
  | 'swipeMasterCard'
  | 'swipeMasterCardGm'
  | 'systemadminLogincard'
  | 'systemKeycard'
  | 'keyCardSwiperSysSecret'
  | 'keyCardCreateSuperuser'
  | 'keyCardSwipeLogin'
  | 'keyCardSystemInit'
  | 'keyCardSwipeMasterCard'
  | 'keyCardSwipeMasterCardGm';

async function fetchSettings(): Promise<TenantSettings> {
  const settings = await apiGet<TenantSettings>(apiPaths.tenantSettings, { guid: randomId() });
  storage.tenantSettings.set(settings);
  return settings;
}

/**
 * Placeholder of a card screen until the card set-up issue lands: outside gate deployments
 * (system type 21–29) it redirects to /login; on a gate deployment it names the screen and says
 * that card set-up needs the local card issuer, with a way back to /login.
 */
export default function CardPlaceholder({ screen }: { screen: CardScreen }) {
  const { t } = useTranslation();
  const stored = storage.tenantSettings.get();
  const query = useQuery({ queryKey: ['tenant-settings'], queryFn: fetchSettings, enabled: !stored, retry: false });
  const settings = stored ?? query.data;

  if (!settings) {
    if (query.isError) return <Navigate to="/login" replace />;
    return (
      <main className="campus-centered" aria-busy="true">
        <Spin />
      </main>
    );
  }
  if (!isGateSystem(settings.mjSystem)) return <Navigate to="/login" replace />;

  return (
    <main className="campus-centered">
      <Result
        status="info"
        title={<h1 className="campus-result-title">{t(`cardSetup.screens.${screen}`)}</h1>}
        subTitle={t('cardSetup.needsIssuer')}
        extra={
          <Link to="/login" className="campus-link-button">
            {t('errors.backToLogin')}
          </Link>
        }
      />
    </main>
  );
}

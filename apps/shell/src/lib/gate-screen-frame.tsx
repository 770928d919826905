import { useEffect, type ReactNode } from 'react';
import { Spin } from 'antd';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { GateSetupState, LanguageCode, TenantSettings } from '@campus/contracts';
import { apiPaths, isGateSystem, toLanguage } from '@campus/contracts';
import { useTranslation } from './use-translation.ts';
import { apiGet, apiPost } from './request.ts';
import { randomId } from './crypto.ts';
import { gateEntryRedirect, gateFamilyOf, gateStepPathsOf } from './gate-setup.ts';
import type { GateScreen, GateStep } from './gate-setup.ts';
import { LanguagePicker } from './language-picker.tsx';
import * as storage from './storage.ts';
import { loadLanguage } from './i18n.ts';

export const gateStateQueryKey = ['gate-setup-state'] as const;

async function fetchSettings(language: LanguageCode): Promise<TenantSettings> {
  const settings = await apiGet<TenantSettings>(apiPaths.tenantSettings, { guid: randomId() }, { language });
  storage.tenantSettings.set(settings);
  return settings;
}

/** The tenant settings (system type, issuer address) and the set-up state, for the entry checks of spec §2. */
export function useGateState() {
  const { i18n } = useTranslation();
  const language = toLanguage(i18n.language);
  const stored = storage.tenantSettings.get();
  // in the language shown (the system name is localised): a switch fetches them again
  const settings = useQuery({ queryKey: ['tenant-settings', language], queryFn: () => fetchSettings(language), retry: false, initialData: stored ?? undefined, staleTime: stored ? 0 : undefined });
  const gate = settings.data ? isGateSystem(settings.data.mjSystem) : false;
  const state = useQuery({ queryKey: gateStateQueryKey, queryFn: () => apiPost<GateSetupState>(apiPaths.gmIsSystemInit), enabled: gate, retry: false });
  return { settings, state };
}

/** The set-up steps of the family of the card screen shown (plain or key-card-*): where its steps send on. */
export function useGateStepPaths(): Record<GateStep, string> {
  return gateStepPathsOf[gateFamilyOf(useLocation().pathname)];
}

/** The heading in the other interface language beside the current one (the card screens' labels are bilingual). */
export function BilingualTitle({ titleKey }: { titleKey: string }) {
  const { t, i18n } = useTranslation();
  const other = i18n.language === 'en-US' ? 'zh-CN' : 'en-US';
  // the other language's texts are fetched for this line (the page re-renders when they are in)
  const otherLoaded = i18n.hasResourceBundle(other, 'translation');
  useEffect(() => {
    if (!otherLoaded) void loadLanguage(other).catch(() => undefined);
  }, [other, otherLoaded]);
  return (
    <header className="campus-card-screen__header">
      <h1 className="campus-card-screen__title">{t(titleKey)}</h1>
      {otherLoaded ? (
        <p className="campus-card-screen__subtitle" lang={other}>
          {i18n.getFixedT(other)(titleKey)}
        </p>
      ) : null}
    </header>
  );
}

export interface GateScreenFrameProps {
  screen: GateScreen;
  titleKey: string;
  children: (state: GateSetupState, settings: TenantSettings) => ReactNode;
  /** A wide card for tables (card management); forms keep the narrow one. */
  wide?: boolean;
}

/**
 * The frame of every card screen: the entry checks of spec §2 (system type 21–29, else /login; then the first
 * missing set-up step), the bilingual heading, the language picker and a way back to the choice of sign-in.
 */
export function GateScreenFrame({ screen, titleKey, children, wide = false }: GateScreenFrameProps) {
  const { t } = useTranslation();
  const { settings, state } = useGateState();
  const { pathname } = useLocation();

  if (settings.isError) return <Navigate to="/login" replace />;
  if (!settings.data) return <Spin fullscreen />;
  if (!isGateSystem(settings.data.mjSystem)) return <Navigate to="/login" replace />;
  if (state.isError) {
    return (
      <main className="campus-centered">
        <p role="alert">{t('cardSetup.stateFailed')}</p>
        <button type="button" className="campus-link-button" onClick={() => void state.refetch()}>
          {t('common.retry')}
        </button>
      </main>
    );
  }
  if (!state.data) return <Spin fullscreen />;
  const redirect = gateEntryRedirect(screen, settings.data.mjSystem, state.data, Boolean(storage.masterCardToken.get()), storage.isSignedIn(), gateFamilyOf(pathname));
  if (redirect) return <Navigate to={redirect} replace />;

  return (
    <main className="campus-card-screen">
      <div className="campus-card-screen__language">
        <LanguagePicker />
      </div>
      <section className={wide ? 'campus-card-screen__card campus-card-screen__card--wide' : 'campus-card-screen__card'}>
        {settings.data.systemName ? <p className="campus-card-screen__product">{settings.data.systemName}</p> : null}
        <BilingualTitle titleKey={titleKey} />
        {children(state.data, settings.data)}
      </section>
      <nav className="campus-card-screen__links" aria-label={t('cardSetup.otherWays')}>
        <Link to="/select-func">{t('cardSetup.selectFunc.title')}</Link>
        <Link to="/login">{t('errors.backToLogin')}</Link>
      </nav>
    </main>
  );
}

import { Segmented } from 'antd';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CardLoginSetting } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiPost } from '../../lib/request.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { CardLoginForm } from './card-login-form.tsx';

/**
 * Whether the tenant lets its administrator card sign in alone (GetCardLoginSetting). Until the answer is in, and
 * when it fails, the card goes with its password: the server refuses the card alone anyway where it needs one.
 */
function useCardAlone(): boolean {
  const setting = useQuery({ queryKey: ['card-login-setting'], queryFn: () => apiPost<CardLoginSetting>(apiPaths.cardLoginSetting, undefined, { quiet: true }), retry: false });
  return setting.data?.cardLoginMode === 'card-alone';
}

/**
 * /swipe-login and /key-card-swipe-login (spec §2): the administrator login card with the card password, or the
 * card alone where the tenant allows it.
 */
export default function SwipeLoginPage({ titleKey = 'cardSetup.screens.swipeLogin' }: { titleKey?: string }) {
  const { t } = useTranslation();
  const cardAlone = useCardAlone();
  const [mode, setMode] = useState<'password' | 'card'>('password');
  const withPassword = !cardAlone || mode === 'password';
  return (
    <GateScreenFrame screen="login" titleKey={titleKey}>
      {(_state, settings) => (
        <>
          {settings.loginLogo ? <img className="campus-card-screen__logo" src={settings.loginLogo} alt="" /> : null}
          {cardAlone ? (
            <Segmented
              aria-label={t('cardLogin.methods')}
              block
              style={{ marginBottom: 16 }}
              value={mode}
              onChange={(value) => setMode(value as 'password' | 'card')}
              options={[
                { value: 'password', label: t('cardLogin.withPassword') },
                { value: 'card', label: t('cardLogin.cardOnly') },
              ]}
            />
          ) : null}
          <CardLoginForm key={withPassword ? 'password' : 'card'} withPassword={withPassword} />
        </>
      )}
    </GateScreenFrame>
  );
}

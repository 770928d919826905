import { Segmented } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../lib/use-translation.ts';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { CardLoginForm } from './card-login-form.tsx';

/** /swipe-login and /key-card-swipe-login (spec §2): the administrator login card, with the card password or alone. */
export default function SwipeLoginPage({ titleKey = 'cardSetup.screens.swipeLogin' }: { titleKey?: string }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'password' | 'card'>('password');
  return (
    <GateScreenFrame screen="login" titleKey={titleKey}>
      {(_state, settings) => (
        <>
          {settings.loginLogo ? <img className="campus-card-screen__logo" src={settings.loginLogo} alt="" /> : null}
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
          <CardLoginForm key={mode} withPassword={mode === 'password'} />
        </>
      )}
    </GateScreenFrame>
  );
}

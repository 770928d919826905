import { Tabs } from 'antd';
import { useTranslation } from '../../lib/use-translation.ts';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { CardLoginForm } from './card-login-form.tsx';
import LoginPage from './login-page.tsx';

/** /pwd-swipe-login (spec §2): a card login tab and a password login tab (login name, password, verification code). */
export default function PwdSwipeLoginPage() {
  const { t } = useTranslation();
  return (
    <GateScreenFrame screen="login" titleKey="cardSetup.screens.pwdSwipeLogin">
      {() => (
        <Tabs
          items={[
            { key: 'card', label: t('cardLogin.cardTab'), children: <CardLoginForm withPassword /> },
            { key: 'password', label: t('cardLogin.passwordTab'), children: <LoginPage embedded /> },
          ]}
        />
      )}
    </GateScreenFrame>
  );
}

import { lazy, Suspense, useState } from 'react';
import { Button, Form, Input } from 'antd';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { CardLoginReply, TenantEntry } from '@campus/contracts';
import { cardIssuerPaths, codes, loginTypes, managementCardKind } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { issuerCall, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { CardFlowError, readerStep } from '../../lib/cards/card-flow.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { CardFlowStatus } from '../../lib/cards/card-reader-dialog.tsx';
import { passwordDigest } from '../../lib/crypto.ts';
import { i18n } from '../../lib/i18n.ts';
import { checkGateway } from '../../lib/cards/issuer-key.ts';
import { useCardFlow } from '../../lib/cards/use-card-flow.ts';
import { completeLogin } from './post-login.ts';
import { createTenantLookup } from './tenant-lookup.ts';

const TenantModal = lazy(() => import('./tenant-modal.tsx').then((module) => ({ default: module.TenantModal })));

interface Values {
  account: string;
  password: string;
}


/**
 * Card sign-in (login type 3): with a login name and password (swipe plus password) or the card alone. The
 * issuer checks its gateway first (spec §4 "Tenant selection and gateway check"), reads the administrator card
 * and relays it to the server, which answers the session.
 */
export function CardLoginForm({ withPassword }: { withPassword: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const { view, start, cancel } = useCardFlow();
  const [lookup] = useState(() => createTenantLookup());
  const [choice, setChoice] = useState<{ tenants: TenantEntry[]; resolve: (code: string | null) => void } | null>(null);

  const chooseTenant = (tenants: TenantEntry[]) => new Promise<string | null>((resolve) => setChoice({ tenants, resolve }));

  const signIn = async (values: Values | null) => {
    // the last attempt's failure is not this one's: it goes as soon as the form is sent again
    cancel();
    let tenantCode: string | undefined;
    const account = values?.account.trim() ?? '';
    if (account) {
      const tenants = await lookup.lookUp(account).catch(() => []);
      if (tenants.length > 1) {
        const chosen = await chooseTenant(tenants);
        if (chosen === null) return;
        tenantCode = chosen;
      } else if (tenants.length === 1) tenantCode = tenants[0]!.code;
    }
    const oprtPwd = values ? await passwordDigest(values.password, 'sm3') : undefined;
    const ok = await start(async (ctx: FlowContext) => {
      await readerStep(ctx, 'connecting', pairIssuer);
      await checkGateway(ctx);
      const info = await readerStep(ctx, 'signingIn', () => issuerCall<CardLoginReply>(cardIssuerPaths.login, { cardKind: managementCardKind, oprtNo: account || undefined, oprtPwd, tenantCode }));
      const outcome = await completeLogin(info, { loginType: loginTypes.card, fromPath: params.get('fromPath') });
      if (outcome.kind === 'no-subsystem') throw new CardFlowError(outcome.message, codes.noSubsystem);
      void navigate(outcome.to, { replace: true });
      return i18n.t('cardLogin.signedIn');
    });
    if (!ok && values) form.setFieldValue('password', '');
  };

  const working = view.kind === 'working';

  return (
    <>
      <p className="campus-card-swipe__prompt">{t('cardLogin.prompt')}</p>
      {withPassword ? (
        <Form form={form} layout="vertical" onFinish={(values) => void signIn(values)} onFinishFailed={cancel} disabled={working}>
          <Form.Item name="account" label={t('cardLogin.account')} rules={[{ required: true, whitespace: true, message: t('cardLogin.accountRequired') }]}>
            <Input autoComplete="username" maxLength={64} autoFocus onBlur={(event) => lookup.prefetch(event.target.value)} />
          </Form.Item>
          <Form.Item name="password" label={t('cardLogin.password')} rules={[{ required: true, message: t('cardLogin.passwordRequired') }]}>
            <Input.Password autoComplete="current-password" maxLength={64} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={working}>
            {t('cardLogin.submit')}
          </Button>
        </Form>
      ) : (
        <Button type="primary" block autoFocus loading={working} onClick={() => void signIn(null)}>
          {t('cardLogin.swipeOnly')}
        </Button>
      )}
      {view.kind !== 'idle' && view.kind !== 'done' ? <CardFlowStatus view={view} renewAdvice={false} /> : null}
      {/* spec §8: a failed swipe login offers to refresh the system key in the card reader */}
      {view.kind === 'failed' ? (
        <p>
          <Link to={`/re-swipe-sys-sceret?from=${encodeURIComponent(pathname)}`}>{t('cardLogin.refreshKey')}</Link>
        </p>
      ) : null}
      {choice ? (
        <Suspense fallback={null}>
          <TenantModal
            tenants={choice.tenants}
            onConfirm={(code) => {
              choice.resolve(code);
              setChoice(null);
            }}
            onCancel={() => {
              choice.resolve(null);
              setChoice(null);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

import { useEffect, useRef } from 'react';
import { Button, Form, Input } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { GateSetupState } from '@campus/contracts';
import { apiPaths, cardTimings, codes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { CardFlowStatus } from '../../lib/cards/card-reader-dialog.tsx';
import { GateScreenFrame, gateStateQueryKey } from '../../lib/gate-screen-frame.tsx';
import { afterMasterCard, gateFamilyOf, motherCardNeedsPassword } from '../../lib/gate-setup.ts';
import { apiPost } from '../../lib/request.ts';
import { useCardFlow } from '../../lib/cards/use-card-flow.ts';
import { masterCardFlow } from './setup-flows.ts';

/**
 * Whether a failed swipe is tried again after 3 s (spec §4): a failed read (any reader code, or the issuer not
 * answering yet) or a call that did not reach the server. A refusal of the server (a business code) is final.
 */
export function swipeRetries(code: number | null, notInstalled: boolean): boolean {
  if (notInstalled || code === null || code === 0) return true;
  return code >= 990000;
}

/** A refusal that concerns the customer password typed: the field is emptied for the next try. */
const passwordRefusals: readonly number[] = [codes.customerPasswordWrong, codes.keyCardTrustLocked, codes.customerPasswordRequired];

function MasterCardSwipe({ state }: { state: GateSetupState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const family = gateFamilyOf(useLocation().pathname);
  const { view, start, cancel } = useCardFlow();
  const flow = useRef(masterCardFlow());
  const needsPassword = motherCardNeedsPassword(state);
  const [form] = Form.useForm<{ customerPassword: string }>();
  const swipe = (customerPassword: string | null) => {
    flow.current = masterCardFlow(customerPassword);
    void start(flow.current);
  };

  useEffect(() => {
    if (view.kind === 'failed' && view.code !== null && passwordRefusals.includes(view.code)) form.setFieldsValue({ customerPassword: '' });
    if (view.kind === 'failed' && swipeRetries(view.code, view.notInstalled)) {
      const timer = setTimeout(() => void start(flow.current), cardTimings.retryMs);
      return () => clearTimeout(timer);
    }
    if (view.kind !== 'done') return;
    let active = true;
    void (async () => {
      // the state as it is now; if it cannot be fetched, the one the entry check saw
      const state = await apiPost<GateSetupState>(apiPaths.gmIsSystemInit).catch(() => queryClient.getQueryData<GateSetupState>(gateStateQueryKey));
      if (!state) return;
      queryClient.setQueryData(gateStateQueryKey, state);
      if (active) void navigate(afterMasterCard(state, family), { replace: true });
    })();
    return () => {
      active = false;
    };
  }, [view, start, navigate, queryClient, family, form]);

  const busy = view.kind === 'working' || (view.kind === 'failed' && swipeRetries(view.code, view.notInstalled));
  return (
    <div className="campus-card-swipe">
      <p className="campus-card-swipe__prompt">{t('cardSetup.master.prompt')}</p>
      {needsPassword ? <p>{t('cardSetup.master.passwordExplain')}</p> : null}
      {view.kind === 'idle' ? <p role="status">{t('cardSetup.master.idle')}</p> : <CardFlowStatus view={view} />}
      {needsPassword ? (
        <Form form={form} name="master-card-customer-password" layout="vertical" requiredMark onFinish={({ customerPassword }) => swipe(customerPassword)}>
          <Form.Item name="customerPassword" label={t('cardSetup.init.customerPwd')} rules={[{ required: true, message: t('cardSetup.init.customerPwdRequired') }]}>
            <Input.Password autoFocus autoComplete="off" maxLength={64} disabled={busy || view.kind === 'done'} />
          </Form.Item>
          {busy ? null : (
            <Button type="primary" block htmlType="submit" disabled={view.kind === 'done'}>
              {t('cardSetup.master.start')}
            </Button>
          )}
        </Form>
      ) : null}
      {busy ? (
        // stops the swipe and its retries; the operator starts again when the card is ready
        <Button block onClick={cancel}>
          {t('common.cancel')}
        </Button>
      ) : needsPassword ? null : (
        <Button type="primary" block onClick={() => swipe(null)} disabled={view.kind === 'done'} autoFocus>
          {t('cardSetup.master.start')}
        </Button>
      )}
    </div>
  );
}

/** /swipe-master-card, /swipe-master-card-gm and their key-card variants (spec §2, §4 "swipe master card"). */
export default function MasterCardPage({ titleKey = 'cardSetup.screens.swipeMasterCardGm' }: { titleKey?: string }) {
  return <GateScreenFrame screen="masterCard" titleKey={titleKey}>{(state) => <MasterCardSwipe state={state} />}</GateScreenFrame>;
}

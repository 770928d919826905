import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { CardReadReply, GateSetupState, GmSysKeyDataRequest, NewDeviceKeyReply, SysKeyDataReply } from '@campus/contracts';
import { apiPaths, cardIssuerPaths, codes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { issuerCall, issuerPublicKey, pairIssuer } from '../../lib/cards/card-issuer.ts';
import { CardFlowError, readerStep, serverStep } from '../../lib/cards/card-flow.ts';
import { signedKeyChallenge } from '../../lib/cards/issuer-key.ts';
import { passwordDigest } from '../../lib/crypto.ts';
import type { FlowContext } from '../../lib/cards/card-flow.ts';
import { CardReaderDialog } from '../../lib/cards/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { afterKeyReload } from '../../lib/gate-setup.ts';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';

/**
 * The system key card with the customer password trusts this card issuer, or renews its trust, and loads the system
 * key into it (GetGMSysKeyData, Init): a copy of the card's bytes alone is not enough (docs/cards.md). An issuer a
 * system administrator revoked is trusted again only with a new device key: the issuer makes one and the card trusts
 * that (a copy of the old key stays refused).
 */
function reloadKeyFlow(customerPassword: string) {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const card = await readerStep(ctx, 'reading', () => issuerCall<CardReadReply>(cardIssuerPaths.readBaseInfo));
    const customerPwd = await passwordDigest(customerPassword, 'sm3');
    const trust = async () => {
      const devicePublicKey = await readerStep(ctx, 'connecting', issuerPublicKey);
      const signed = await signedKeyChallenge(ctx, devicePublicKey);
      const request: GmSysKeyDataRequest = { devicePublicKey, ...signed, fixedNo: card.fixedNo, image: card.image, customerPwd };
      return serverStep<SysKeyDataReply>(ctx, 'verifying', apiPaths.getGmSysKeyData, request);
    };
    let reply: SysKeyDataReply;
    try {
      reply = await trust();
    } catch (error) {
      if (!(error instanceof CardFlowError) || error.code !== codes.issuerTrustRevoked) throw error;
      await readerStep(ctx, 'connecting', () => issuerCall<NewDeviceKeyReply>(cardIssuerPaths.newDeviceKey));
      await readerStep(ctx, 'connecting', pairIssuer);
      reply = await trust();
    }
    await readerStep(ctx, 'loadingKey', () => issuerCall(cardIssuerPaths.init, { sysKeyData: reply.sysKeyData }));
    return i18n.t('cardSetup.reSwipe.done');
  };
}

function ReSwipe({ state }: { state: GateSetupState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [flow, setFlow] = useState<CardFlow | null>(null);
  const [form] = Form.useForm<{ customerPassword: string }>();
  if (!state.hasSecret) {
    // a system administrator (signed in with his password) recovers the key with the system key card
    const recovery = storage.isSignedIn() ? '/system-keycard' : `/login?fromPath=${encodeURIComponent('/system-keycard')}`;
    return (
      <>
        <Alert type="error" showIcon title={t('cardSetup.reSwipe.secretMissing')} style={{ marginBottom: 16 }} />
        <Button type="primary" block autoFocus onClick={() => void navigate(recovery)}>
          {t(storage.isSignedIn() ? 'cardSetup.reSwipe.recover' : 'cardSetup.reSwipe.signInToRecover')}
        </Button>
      </>
    );
  }
  return (
    <>
      <p>{t('cardSetup.reSwipe.explain')}</p>
      <Form form={form} name="re-swipe-key-card" layout="vertical" requiredMark onFinish={({ customerPassword }) => setFlow(() => reloadKeyFlow(customerPassword))}>
        <Form.Item name="customerPassword" label={t('cardSetup.init.customerPwd')} rules={[{ required: true, message: t('cardSetup.init.customerPwdRequired') }]}>
          <Input.Password autoFocus autoComplete="off" maxLength={64} />
        </Form.Item>
        <Button type="primary" block htmlType="submit">
          {t('cardSetup.reSwipe.start')}
        </Button>
      </Form>
      {flow ? (
        <CardReaderDialog
          open
          title={t('cardSetup.reSwipe.dialogTitle')}
          flow={flow}
          onClose={(outcome) => {
            setFlow(null);
            form.setFieldsValue({ customerPassword: '' });
            if (outcome.ok) void navigate(afterKeyReload(params.get('from')), { replace: true });
          }}
        />
      ) : null}
    </>
  );
}

/** /re-swipe-sys-sceret: read the system key card again when the card issuer lost the key data or is new. */
export default function ReSwipePage() {
  return <GateScreenFrame screen="reSwipe" titleKey="cardSetup.reSwipe.title">{(state) => <ReSwipe state={state} />}</GateScreenFrame>;
}

import { useState } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { CardReadReply, GateSetupState, SysKeyDataReply } from '@campus/contracts';
import { apiPaths, cardIssuerPaths } from '@campus/contracts';
import { issuerCall, issuerPublicKey, pairIssuer } from '../../lib/card-issuer.ts';
import { readerStep, serverStep } from '../../lib/card-flow.ts';
import type { FlowContext } from '../../lib/card-flow.ts';
import { CardReaderDialog } from '../../lib/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/card-reader-dialog.tsx';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { afterKeyReload } from '../../lib/gate-setup.ts';
import { i18n } from '../../lib/i18n.ts';
import * as storage from '../../lib/storage.ts';

/** The system key card trusts this card issuer and loads the system key into it (GetGMSysKeyData, Init). */
function reloadKeyFlow() {
  return async (ctx: FlowContext): Promise<string> => {
    await readerStep(ctx, 'connecting', pairIssuer);
    const devicePublicKey = await readerStep(ctx, 'connecting', issuerPublicKey);
    const card = await readerStep(ctx, 'reading', () => issuerCall<CardReadReply>(cardIssuerPaths.readBaseInfo));
    const { sysKeyData } = await serverStep<SysKeyDataReply>(ctx, 'verifying', apiPaths.getGmSysKeyData, { devicePublicKey, fixedNo: card.fixedNo, image: card.image });
    await readerStep(ctx, 'loadingKey', () => issuerCall(cardIssuerPaths.init, { sysKeyData }));
    return i18n.t('cardSetup.reSwipe.done');
  };
}

function ReSwipe({ state }: { state: GateSetupState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [flow, setFlow] = useState<CardFlow | null>(null);
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
      <Button type="primary" block autoFocus onClick={() => setFlow(() => reloadKeyFlow())}>
        {t('cardSetup.reSwipe.start')}
      </Button>
      {flow ? (
        <CardReaderDialog
          open
          title={t('cardSetup.reSwipe.dialogTitle')}
          flow={flow}
          onClose={(outcome) => {
            setFlow(null);
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

import { useState } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from '../../lib/use-translation.ts';
import type { CardFlow } from '../../lib/cards/card-reader-dialog.tsx';
import { GateScreenFrame, useGateStepPaths } from '../../lib/gate-screen-frame.tsx';
import { SetupStepDialog } from './setup-step-dialog.tsx';
import { keyCardFlow } from '../../lib/cards/key-card-flow.ts';

function KeyCardIssue() {
  const { t } = useTranslation();
  const [flow, setFlow] = useState<CardFlow | null>(null);
  const steps = useGateStepPaths();
  return (
    <>
      <Alert type="warning" showIcon title={t('cardSetup.keyCard.warning')} style={{ marginBottom: 16 }} />
      <p>{t('cardSetup.keyCard.placeBlank')}</p>
      <Button type="primary" block autoFocus onClick={() => setFlow(() => keyCardFlow())}>
        {t('cardSetup.keyCard.issue')}
      </Button>
      {flow ? <SetupStepDialog title={t('cardSetup.keyCard.dialogTitle')} flow={flow} next={steps.superAdminCard} onClosed={() => setFlow(null)} /> : null}
    </>
  );
}

/** /swiper-sys-secret and /key-card-swiper-sys-secret (spec §2): the system key card. */
export default function KeyCardPage({ titleKey = 'cardSetup.screens.swiperSysSecret' }: { titleKey?: string }) {
  return <GateScreenFrame screen="keyCard" titleKey={titleKey}>{() => <KeyCardIssue />}</GateScreenFrame>;
}

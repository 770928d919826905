import { useState } from 'react';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { codes } from '@campus/contracts';
import { CardReaderDialog } from '../../lib/card-reader-dialog.tsx';
import type { CardFlow } from '../../lib/card-reader-dialog.tsx';
import { GateScreenFrame, gateStateQueryKey } from '../../lib/gate-screen-frame.tsx';
import { gateStepPaths } from '../../lib/gate-setup.ts';
import { keyCardFlow } from './setup-flows.ts';

function KeyCardIssue() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [flow, setFlow] = useState<CardFlow | null>(null);
  return (
    <>
      <Alert type="warning" showIcon title={t('cardSetup.keyCard.warning')} style={{ marginBottom: 16 }} />
      <p>{t('cardSetup.keyCard.placeBlank')}</p>
      <Button type="primary" block autoFocus onClick={() => setFlow(() => keyCardFlow())}>
        {t('cardSetup.keyCard.issue')}
      </Button>
      {flow ? (
        <CardReaderDialog
          open
          title={t('cardSetup.keyCard.dialogTitle')}
          flow={flow}
          onClose={async (outcome) => {
            setFlow(null);
            if (!outcome.ok && outcome.code === codes.masterCardTokenInvalid) void navigate(gateStepPaths.masterCard, { replace: true });
            if (!outcome.ok) return;
            // the next screen's entry check must see this step done
            await queryClient.invalidateQueries({ queryKey: gateStateQueryKey });
            void navigate(gateStepPaths.superAdminCard, { replace: true });
          }}
        />
      ) : null}
    </>
  );
}

/** /swiper-sys-secret and /key-card-swiper-sys-secret (spec §2): the system key card. */
export default function KeyCardPage({ titleKey = 'cardSetup.screens.swiperSysSecret' }: { titleKey?: string }) {
  return <GateScreenFrame screen="keyCard" titleKey={titleKey}>{() => <KeyCardIssue />}</GateScreenFrame>;
}

import { useEffect, useRef } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { GateSetupState } from '@campus/contracts';
import { apiPaths, cardTimings, codes } from '@campus/contracts';
import { CardFlowStatus } from '../../lib/card-reader-dialog.tsx';
import { GateScreenFrame, gateStateQueryKey } from '../../lib/gate-screen-frame.tsx';
import { afterMasterCard } from '../../lib/gate-setup.ts';
import { apiPost } from '../../lib/request.ts';
import { useCardFlow } from '../../lib/use-card-flow.ts';
import { masterCardFlow } from './setup-flows.ts';

/** Server answers that end the swipe; any other failure (a reader or a call that failed) tries again after 3 s. */
const serverRefusals: readonly number[] = [codes.masterCardRejected, codes.systemNotInitialised, codes.systemSecretMissing, codes.notGateSystem];

function MasterCardSwipe({ keyCardVariant }: { keyCardVariant: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { view, start } = useCardFlow();
  const flow = useRef(masterCardFlow());

  useEffect(() => {
    if (view.kind === 'failed' && !serverRefusals.includes(view.code ?? 0) && !view.notInstalled) {
      const timer = setTimeout(() => void start(flow.current), cardTimings.retryMs);
      return () => clearTimeout(timer);
    }
    if (view.kind !== 'done') return;
    let active = true;
    void (async () => {
      const state = await apiPost<GateSetupState>(apiPaths.gmIsSystemInit);
      queryClient.setQueryData(gateStateQueryKey, state);
      if (active) void navigate(afterMasterCard(state, keyCardVariant), { replace: true });
    })();
    return () => {
      active = false;
    };
  }, [view, start, navigate, queryClient, keyCardVariant]);

  return (
    <div className="campus-card-swipe">
      <p className="campus-card-swipe__prompt">{t('cardSetup.master.prompt')}</p>
      {view.kind === 'idle' ? <p role="status">{t('cardSetup.master.idle')}</p> : <CardFlowStatus view={view} />}
      <Button type="primary" block onClick={() => void start(flow.current)} disabled={view.kind === 'working' || view.kind === 'done'} autoFocus>
        {t('cardSetup.master.start')}
      </Button>
    </div>
  );
}

/** /swipe-master-card, /swipe-master-card-gm and their key-card variants (spec §2, §4 "swipe master card"). */
export default function MasterCardPage({ keyCardVariant = false, titleKey = 'cardSetup.screens.swipeMasterCardGm' }: { keyCardVariant?: boolean; titleKey?: string }) {
  return <GateScreenFrame screen="masterCard" titleKey={titleKey}>{() => <MasterCardSwipe keyCardVariant={keyCardVariant} />}</GateScreenFrame>;
}

import { useEffect, useRef } from 'react';
import { Button } from 'antd';
import { useLocation, useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { GateSetupState } from '@campus/contracts';
import { apiPaths, cardTimings } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { CardFlowStatus } from '../../lib/card-reader-dialog.tsx';
import { GateScreenFrame, gateStateQueryKey } from '../../lib/gate-screen-frame.tsx';
import { afterMasterCard, gateFamilyOf } from '../../lib/gate-setup.ts';
import { apiPost } from '../../lib/request.ts';
import { useCardFlow } from '../../lib/use-card-flow.ts';
import { masterCardFlow } from './setup-flows.ts';

/**
 * Whether a failed swipe is tried again after 3 s (spec §4): a failed read (any reader code, or the issuer not
 * answering yet) or a call that did not reach the server. A refusal of the server (a business code) is final.
 */
export function swipeRetries(code: number | null, notInstalled: boolean): boolean {
  if (notInstalled || code === null || code === 0) return true;
  return code >= 990000;
}

function MasterCardSwipe() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const family = gateFamilyOf(useLocation().pathname);
  const { view, start, cancel } = useCardFlow();
  const flow = useRef(masterCardFlow());

  useEffect(() => {
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
  }, [view, start, navigate, queryClient, family]);

  return (
    <div className="campus-card-swipe">
      <p className="campus-card-swipe__prompt">{t('cardSetup.master.prompt')}</p>
      {view.kind === 'idle' ? <p role="status">{t('cardSetup.master.idle')}</p> : <CardFlowStatus view={view} />}
      {view.kind === 'working' || (view.kind === 'failed' && swipeRetries(view.code, view.notInstalled)) ? (
        // stops the swipe and its retries; the operator starts again when the card is ready
        <Button block onClick={cancel}>
          {t('common.cancel')}
        </Button>
      ) : (
        <Button type="primary" block onClick={() => void start(flow.current)} disabled={view.kind === 'done'} autoFocus>
          {t('cardSetup.master.start')}
        </Button>
      )}
    </div>
  );
}

/** /swipe-master-card, /swipe-master-card-gm and their key-card variants (spec §2, §4 "swipe master card"). */
export default function MasterCardPage({ titleKey = 'cardSetup.screens.swipeMasterCardGm' }: { titleKey?: string }) {
  return <GateScreenFrame screen="masterCard" titleKey={titleKey}>{() => <MasterCardSwipe />}</GateScreenFrame>;
}

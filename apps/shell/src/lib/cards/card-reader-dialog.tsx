import { useEffect, useRef } from 'react';
import { Alert, Button, Modal, Result, Spin } from 'antd';
import { Link, useInRouterContext, useLocation } from 'react-router-dom';
import { cardTimings, codes, localDeviceServicePort } from '@campus/contracts';
import { useTranslation } from '../use-translation.ts';
import { issuerBaseUrl } from './card-issuer.ts';
import { IssuerUpdateAdvice, OlderIssuerWarning } from './issuer-version-notice.tsx';
import { useCardFlow } from './use-card-flow.ts';
import type { CardFlow, CardFlowView } from './use-card-flow.ts';

export type { CardFlow } from './use-card-flow.ts';

export type CardDialogOutcome = { ok: true; text: string } | { ok: false; code: number | null };

export interface CardReaderDialogProps {
  open: boolean;
  title: string;
  /** The work: reader and server steps; answers the success text. Keep it the same function while open. */
  flow: CardFlow;
  /** Closes the dialog: with the success text, or after a failure or Cancel (with the failure's code, if any). */
  onClose: (outcome: CardDialogOutcome) => void | Promise<void>;
  /** Close this long after success (spec §4: 2 s for issue and recycle, 1 s for the password change). */
  autoCloseMs?: number;
}

/**
 * What to do when the issuer does not answer: the download on the Tools page (a new tab keeps this page's work), and
 * the address this page calls, with the port to start it on when that is not the issuer's default.
 */
function IssuerStartAdvice() {
  const { t } = useTranslation();
  const address = issuerBaseUrl();
  let port = '';
  try {
    port = new URL(address).port;
  } catch {
    // not an address to name a port of: the sentence is left out
  }
  return (
    <>
      <p>{t('cardReader.howToStart', { address })}</p>
      {port !== '' && port !== String(localDeviceServicePort) ? <p>{t('cardReader.howToStartPort', { port })}</p> : null}
      <a href="/tools" target="_blank" rel="noopener noreferrer">
        {t('cardReader.openTools')}
      </a>
    </>
  );
}

/** The server refused the issuer the system key for its trust (never made, expired, revoked): the renew step can help. */
const trustRefusals: readonly number[] = [codes.readerNotTrusted, codes.issuerTrustExpired, codes.issuerTrustRevoked];
const renewTrustPath = '/re-swipe-sys-sceret';

/** The way to the renew step (the system key card with the customer password), coming back here after it. */
function RenewTrustLink() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (pathname === renewTrustPath) return null;
  return <Link to={`${renewTrustPath}?from=${encodeURIComponent(pathname)}`}>{t('cardReader.renewTrust')}</Link>;
}

/**
 * What the reader is doing, a failure with its advice, or the success: shared by the dialog and the swipe screens.
 * `renewAdvice`: a refusal of the issuer's trust links to the renew step (the card sign-in has its own link).
 */
export function CardFlowStatus({ view, renewAdvice = true }: { view: CardFlowView; renewAdvice?: boolean }) {
  const { t } = useTranslation();
  const inRouter = useInRouterContext();
  const renew = renewAdvice && inRouter && view.kind === 'failed' && view.code !== null && trustRefusals.includes(view.code);
  const advice = view.kind !== 'failed' ? undefined : view.notInstalled ? <IssuerStartAdvice /> : view.outdatedIssuer ? <IssuerUpdateAdvice /> : renew ? <RenewTrustLink /> : undefined;
  return (
    <div className="campus-card-dialog" aria-live="polite">
      {view.kind !== 'idle' ? <OlderIssuerWarning /> : null}
      {view.kind === 'working' ? (
        <div className="campus-card-dialog__working" role="status">
          <Spin />
          <p className="campus-card-dialog__phase">{t(`cardReader.phase.${view.progress.phase}`)}</p>
          {view.progress.detail ? <p className="campus-card-dialog__detail">{view.progress.detail}</p> : null}
        </div>
      ) : null}
      {view.kind === 'failed' ? <Alert type="error" showIcon role="alert" title={view.message} description={advice} /> : null}
      {view.kind === 'done' ? <Result status="success" title={view.text} /> : null}
    </div>
  );
}

/**
 * The card reader dialog of spec §4: it starts when opened, always says what the reader is doing, retries
 * what the reader flow retries, shows a failure with Try again, and closes by itself after success.
 */
export function CardReaderDialog({ open, title, flow, onClose, autoCloseMs = cardTimings.issueDialogCloseMs }: CardReaderDialogProps) {
  const { t } = useTranslation();
  const { view, start, cancel } = useCardFlow();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    if (open) void start(flow);
    else cancel();
  }, [open, flow, start, cancel]);

  useEffect(() => {
    if (view.kind !== 'done') return;
    const timer = setTimeout(() => void closeRef.current({ ok: true, text: view.text }), autoCloseMs);
    return () => clearTimeout(timer);
  }, [view, autoCloseMs]);

  const close = () => {
    const outcome: CardDialogOutcome = view.kind === 'done' ? { ok: true, text: view.text } : { ok: false, code: view.kind === 'failed' ? view.code : null };
    cancel();
    void onClose(outcome);
  };

  const footer =
    view.kind === 'failed'
      ? [
          <Button key="close" onClick={close}>
            {t('cardReader.close')}
          </Button>,
          <Button key="again" type="primary" onClick={() => void start(flow)}>
            {t('cardReader.tryAgain')}
          </Button>,
        ]
      : [
          <Button key="close" type={view.kind === 'done' ? 'primary' : 'default'} onClick={close}>
            {view.kind === 'done' ? t('common.confirm') : t('common.cancel')}
          </Button>,
        ];

  return (
    <Modal open={open} title={title} footer={footer} onCancel={close} mask={{ closable: false }} destroyOnHidden width={520}>
      <CardFlowStatus view={view} />
    </Modal>
  );
}

import { useEffect, useRef } from 'react';
import { Alert, Button, Modal, Space, Spin, Typography } from 'antd';
import { CloseCircleFilled, ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { readableColors } from '../../lib/readable-colors.ts';
import { useQuery } from '@tanstack/react-query';
import type { LicencePermission } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import { anyLicenceDialogOpen, openLicenceUpload, openTrial, useLicenceDialogs } from './licence-dialog-state.ts';
import { decideLicencePrompt, promptTextKey, type LicencePromptDecision } from './licence-prompt-decision.ts';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';

function PromptBody({ decision, onViewDetails }: { decision: LicencePromptDecision; onViewDetails: () => void }) {
  const { t } = useTranslation();
  if (decision.kind === 'employee') {
    return <Alert type="warning" showIcon title={t('licence.prompt.employee')} />;
  }
  if (decision.kind === 'tampered') {
    return (
      <Space align="start">
        <CloseCircleFilled style={{ color: readableColors.error, fontSize: 22 }} />
        <Typography.Text strong>{t('licence.prompt.tampered')}</Typography.Text>
      </Space>
    );
  }
  const { links } = decision;
  return (
    <>
      <Space align="start" style={{ marginBottom: 12 }}>
        {decision.condition === 'none' ? (
          <InfoCircleFilled style={{ color: readableColors.info, fontSize: 22 }} />
        ) : (
          <ExclamationCircleFilled style={{ color: readableColors.warning, fontSize: 22 }} />
        )}
        <Typography.Text>{t(promptTextKey(decision.condition))}</Typography.Text>
      </Space>
      <Space wrap>
        {links.view ? (
          <Button type="link" onClick={() => onViewDetails()}>
            {t('licence.prompt.view')}
          </Button>
        ) : null}
        {links.trial ? (
          <Button type="link" onClick={openTrial}>
            {t('licence.prompt.trial')}
          </Button>
        ) : null}
        {links.formal ? (
          <Button type="link" onClick={openLicenceUpload}>
            {t('licence.prompt.formal')}
          </Button>
        ) : null}
      </Space>
    </>
  );
}

function titleKey(decision: LicencePromptDecision | null): string {
  if (decision?.kind === 'prompt' && decision.condition === 'none') return 'licence.prompt.welcomeTitle';
  if (decision?.kind === 'tampered') return 'licence.prompt.tampered';
  return 'licence.prompt.title';
}

export interface LicencePromptProps {
  /** 'View details': the app layer opens About System on its Licenses tab (another feature's dialog). */
  onViewDetails: () => void;
  /** True while the dialog 'View details' opened is shown. */
  detailsOpen: boolean;
}

/**
 * The licence prompt after a sign-in whose licence check was not normal (spec §4 "Licence prompt", §6,
 * §8). It cannot be dismissed, but always offers 'Return to login'; it steps aside while a dialog its
 * links open (About System, upload, trial, activation) is shown, and comes back when that one closes.
 */
export default function LicencePrompt({ onViewDetails, detailsOpen }: LicencePromptProps) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const permission = useQuery({
    queryKey: ['licence-permission'],
    queryFn: () => apiGet<LicencePermission>(apiPaths.licencePermission),
    retry: false,
    staleTime: 0,
  });
  const licenceDialogOpen = useLicenceDialogs(anyLicenceDialogOpen);
  const open = !detailsOpen && !licenceDialogOpen;
  // back from a dialog its links opened (a licence may have been uploaded there): say what holds now
  const wasOpen = useRef(open);
  const { refetch } = permission;
  useEffect(() => {
    if (open && !wasOpen.current) void refetch();
    wasOpen.current = open;
  }, [open, refetch]);
  const decision = permission.data ? decideLicencePrompt(permission.data) : null;
  if (permission.isSuccess && decision === null) return null;

  return (
    <Modal
      title={t(titleKey(decision))}
      open={open}
      width={520}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      footer={[
        <Button key="login" type="primary" onClick={() => void signOut()}>
          {t('licence.prompt.returnToLogin')}
        </Button>,
      ]}
    >
      {permission.isPending ? <Spin /> : null}
      {permission.isError ? (
        <LoadFailedAlert title={t('licence.prompt.loadFailed')} onRetry={() => void permission.refetch()} retrying={permission.isFetching} />
      ) : null}
      {decision ? <PromptBody decision={decision} onViewDetails={onViewDetails} /> : null}
    </Modal>
  );
}

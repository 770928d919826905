import { useState } from 'react';
import { Alert, Button, Checkbox, Empty, Modal, Spin, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { ActivateLicenceRequest, LicenceDetail, LicenceDetailRequest } from '@campus/contracts';
import { apiPaths, licenceModalWidths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiPost } from '../../lib/request.ts';
import { LicenceDetailView } from './licence-detail-view.tsx';
import { useFinalSubmit } from './use-final-submit.ts';

export interface ActivationModalProps {
  /** The licence to activate; null when closed. */
  id: string | null;
  onClose: () => void;
  /** After a successful activation (the caller signs out). */
  onActivated: () => Promise<void>;
}

function DetailPane({ query, none }: { query: { isPending: boolean; isError: boolean; data: LicenceDetail | null | undefined }; none: string }) {
  const { t } = useTranslation();
  if (query.isPending) return <Spin />;
  if (query.isError) return <Alert type="error" showIcon title={t('licence.activation.loadFailed')} />;
  if (!query.data) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={none} />;
  return <LicenceDetailView detail={query.data} />;
}

/**
 * Activation (spec §2, §4 "Licences", §8; width 1000): the licence in effect now (Old Licence) beside the
 * chosen one (New Licence); Activate only once the confirm box is ticked. Success means signing in again.
 */
export function ActivationModal({ id, onClose, onActivated }: ActivationModalProps) {
  const { t } = useTranslation();
  const open = id !== null;
  const [confirmed, setConfirmed] = useState(false);
  const { sending, failure, submit, reset } = useFinalSubmit({ failedKey: 'licence.activation.failed', succeededKey: 'licence.activation.succeeded', onDone: onActivated });

  const oldDetail = useQuery({
    queryKey: ['licence-old-detail'],
    queryFn: () => apiPost<LicenceDetail | null>(apiPaths.licenceOldDetail),
    enabled: open,
    retry: false,
    staleTime: 0,
  });
  const newDetail = useQuery({
    queryKey: ['licence-detail', id],
    queryFn: () => apiPost<LicenceDetail>(apiPaths.licenceDetail, { id: id! } satisfies LicenceDetailRequest),
    enabled: open,
    retry: false,
  });

  const activate = async () => {
    if (!id || !confirmed) return;
    await submit(() => apiPost(apiPaths.licenceActivate, { id } satisfies ActivateLicenceRequest));
  };

  return (
    <Modal
      title={t('licence.activation.title')}
      open={open}
      width={licenceModalWidths.activation}
      onCancel={() => {
        if (!sending) onClose();
      }}
      afterClose={() => {
        setConfirmed(false);
        reset();
      }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={sending}>
          {t('licence.cancel')}
        </Button>,
        <Button key="activate" type="primary" disabled={!confirmed} loading={sending} onClick={() => void activate()}>
          {t('licence.activation.activate')}
        </Button>,
      ]}
    >
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <Tabs
        items={[
          { key: 'old', label: t('licence.activation.old'), children: <DetailPane query={oldDetail} none={t('licence.activation.none')} /> },
          { key: 'new', label: t('licence.activation.new'), children: <DetailPane query={newDetail} none={t('licence.activation.none')} /> },
        ]}
      />
      <Checkbox checked={confirmed} disabled={sending} onChange={(event) => setConfirmed(event.target.checked)} style={{ marginTop: 12 }}>
        {t('licence.activation.confirm')}
      </Checkbox>
    </Modal>
  );
}

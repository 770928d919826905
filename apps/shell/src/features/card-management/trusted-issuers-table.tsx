import { useState } from 'react';
import { Alert, Button, Modal, Table, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrustedIssuerRow } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { readableColors } from '../../lib/readable-colors.ts';
import { titleInViewerZone, viewerTime } from '../../lib/time-format.ts';
import { cardManagerCall, problemText } from './card-manager-calls.ts';
import { useTokenRefusal } from './use-token-refusal.ts';

const queryKey = ['trusted-issuers'] as const;
/** Solid tags with white text, readable (4.5:1) as the card table's; an expired trust keeps the default tag. */
const stateColours: Record<TrustedIssuerRow['state'], string | undefined> = { trusted: readableColors.success, expired: undefined, revoked: readableColors.errorHover };

/** The PC's name, or its device id while it reported none (a trust of an earlier release). */
const issuerName = (row: TrustedIssuerRow) => row.hostName || row.deviceId;

/**
 * The trusted card issuers (operator PCs) below the system key card table (docs/cards.md "Trusted issuers"): each
 * gets the system key only while its trust lasts; a system administrator revokes one (a stolen PC, a copied data
 * folder) after a confirmation, and it gets no key again.
 */
export function TrustedIssuersTable() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const refused = useTokenRefusal('keyCards');
  const [revoking, setRevoking] = useState<TrustedIssuerRow | null>(null);
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const issuers = useQuery({
    queryKey,
    queryFn: async () => {
      try {
        const { data } = await cardManagerCall<TrustedIssuerRow[] | null>(apiPaths.trustedIssuerList);
        return Array.isArray(data) ? data : [];
      } catch (error) {
        refused(error);
        throw error;
      }
    },
    retry: false,
    staleTime: 0,
  });
  const time = (epochMs: number | null) => (epochMs ? viewerTime(epochMs, i18n.language, 'mediumDateTime') : '—');

  const revoke = async (row: TrustedIssuerRow) => {
    setSending(true);
    try {
      await cardManagerCall(apiPaths.trustedIssuerRevoke, { deviceId: row.deviceId });
      setOutcome({ type: 'success', text: t('cardManagement.trustedIssuers.revoked', { name: issuerName(row) }) });
    } catch (error) {
      if (refused(error)) return;
      setOutcome({ type: 'error', text: problemText(error) });
    } finally {
      setSending(false);
      setRevoking(null);
    }
    void queryClient.invalidateQueries({ queryKey });
  };

  return (
    <section className="campus-trusted-issuers" aria-labelledby="campus-trusted-issuers-title">
      <Typography.Title level={4} id="campus-trusted-issuers-title">
        {t('cardManagement.trustedIssuers.title')}
      </Typography.Title>
      <p>{t('cardManagement.trustedIssuers.explain')}</p>
      {outcome ? <Alert type={outcome.type} showIcon title={outcome.text} closable onClose={() => setOutcome(null)} style={{ marginBottom: 12 }} /> : null}
      {issuers.isError ? <Alert type="error" showIcon title={problemText(issuers.error)} style={{ marginBottom: 12 }} /> : null}
      <Table<TrustedIssuerRow>
        rowKey="deviceId"
        size="small"
        loading={issuers.isLoading}
        dataSource={issuers.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('cardManagement.trustedIssuers.empty') }}
        columns={[
          { key: 'hostName', title: t('cardManagement.trustedIssuers.column.hostName'), render: (_: unknown, row) => issuerName(row) },
          { key: 'deviceId', dataIndex: 'deviceId', title: t('cardManagement.trustedIssuers.column.deviceId') },
          {
            key: 'state',
            title: t('cardManagement.trustedIssuers.column.state'),
            render: (_: unknown, row) => <Tag color={stateColours[row.state]}>{t(`cardManagement.trustedIssuers.state.${row.state}`)}</Tag>,
          },
          { key: 'trustedBy', title: t('cardManagement.trustedIssuers.column.trustedBy'), render: (_: unknown, row) => (row.trustedBy === 'master-card' ? t('cardManagement.trustedIssuers.byMotherCard') : t('cardManagement.trustedIssuers.byKeyCard', { fixedNo: row.trustedBy.replace(/^key-card:/, '') })) },
          { key: 'firstTrustedAt', title: titleInViewerZone(t('cardManagement.trustedIssuers.column.firstTrustedAt')), render: (_: unknown, row) => time(row.firstTrustedAt) },
          { key: 'expiresAt', title: titleInViewerZone(t('cardManagement.trustedIssuers.column.expiresAt')), render: (_: unknown, row) => (row.state === 'revoked' ? t('cardManagement.trustedIssuers.revokedBy', { account: row.revokedBy ?? '', time: time(row.revokedAt) }) : time(row.expiresAt)) },
          { key: 'lastFetchAt', title: titleInViewerZone(t('cardManagement.trustedIssuers.column.lastFetchAt')), render: (_: unknown, row) => time(row.lastFetchAt) },
          { key: 'address', title: t('cardManagement.trustedIssuers.column.address'), render: (_: unknown, row) => row.lastFetchIp || row.clientIp || '—' },
          {
            key: 'actions',
            title: t('cardManagement.trustedIssuers.column.actions'),
            render: (_: unknown, row) =>
              row.state === 'revoked' ? null : (
                <Button danger size="small" onClick={() => setRevoking(row)}>
                  {t('cardManagement.trustedIssuers.revoke')}
                </Button>
              ),
          },
        ]}
      />
      {revoking ? (
        <Modal
          open
          title={t('cardManagement.trustedIssuers.revoke')}
          okText={t('cardManagement.trustedIssuers.revoke')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true, autoFocus: true }}
          confirmLoading={sending}
          onOk={() => void revoke(revoking)}
          onCancel={() => (sending ? undefined : setRevoking(null))}
          destroyOnHidden
        >
          <p>{t('cardManagement.trustedIssuers.confirm', { name: issuerName(revoking), deviceId: revoking.deviceId })}</p>
        </Modal>
      ) : null}
    </section>
  );
}

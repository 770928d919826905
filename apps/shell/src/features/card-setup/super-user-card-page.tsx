import { Alert, Descriptions, Table } from 'antd';
import { Link, Navigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { AdminLoginCardSummary, SuperAdminIssueData } from '@campus/contracts';
import { apiPaths, cardStates, codes } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { GateScreenFrame, useGateStepPaths } from '../../lib/gate-screen-frame.tsx';
import { apiPost, RequestError } from '../../lib/request.ts';
import { FinishButton } from '../../lib/cards/finish-button.tsx';
import { SuperAdminIssue } from './create-superuser-page.tsx';

/** The super administrator's cards, and a new card when none is in use (none yet, or lost or frozen). */
function SuperUserCard() {
  const { t } = useTranslation();
  const data = useQuery({
    queryKey: ['gate-super-admin-cards'],
    queryFn: () => apiPost<SuperAdminIssueData>(apiPaths.getSuperAdminIssueData, {}, { useMasterToken: true }),
    retry: false,
  });
  const masterCardPath = useGateStepPaths().masterCard;
  if (data.error instanceof RequestError && data.error.code === codes.masterCardTokenInvalid) return <Navigate to={masterCardPath} replace />;
  const inUse = (data.data?.cards ?? []).some((card) => card.state === cardStates.inUse);

  return (
    <>
      {data.isError ? <Alert type="error" showIcon title={data.error instanceof Error ? data.error.message : t('request.internalError')} /> : null}
      <Descriptions column={1} size="small" style={{ marginBottom: 12 }}>
        <Descriptions.Item label={t('cardSetup.superAdmin.account')}>{data.data?.no ?? ''}</Descriptions.Item>
      </Descriptions>
      <Table<AdminLoginCardSummary>
        rowKey="id"
        size="small"
        loading={data.isLoading}
        dataSource={data.data?.cards ?? []}
        pagination={false}
        locale={{ emptyText: t('cardSetup.management.noCards') }}
        columns={[
          { title: t('cardSetup.management.cardNum'), dataIndex: 'cardNum' },
          { title: t('cardSetup.management.fixedNo'), dataIndex: 'fixedNo' },
          { title: t('cardSetup.management.state'), dataIndex: 'state', render: (value: number) => t(`cardSetup.cardState.${value}`, { defaultValue: String(value) }) },
        ]}
      />
      {data.data ? (
        inUse ? (
          <p style={{ marginTop: 12 }}>{t('cardSetup.management.reissueLater')}</p>
        ) : (
          // no card in use (none yet, or lost or frozen): issue a new one onto a blank card
          <div style={{ marginTop: 16 }}>
            <SuperAdminIssue next="/super-user-card" />
          </div>
        )
      ) : null}
      <p style={{ marginTop: 12 }}>
        <Link to="/systemadmin-logincard">{t('cardSetup.management.toTables')}</Link>
      </p>
      <FinishButton />
    </>
  );
}

/** /super-user-card: the super administrator's card, issued again when none is in use (master-card token). */
export default function SuperUserCardPage() {
  return <GateScreenFrame screen="management" titleKey="cardSetup.management.superUserCardTitle">{() => <SuperUserCard />}</GateScreenFrame>;
}

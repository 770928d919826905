import { Alert, Button, Descriptions, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { SuperAdminIssue } from './create-superuser-page.tsx';
import { useQuery } from '@tanstack/react-query';
import type { AdminLoginCardSummary, GateSetupState, SuperAdminIssueData } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { GateScreenFrame } from '../../lib/gate-screen-frame.tsx';
import { gateStepPaths } from '../../lib/gate-setup.ts';
import { apiPost, RequestError } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';

export type ManagementView = 'adminCards' | 'keyCards' | 'superUserCard';

/** Ends the card-management visit: the master-card token is forgotten, and the operator chooses the way in. */
function FinishButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button
      type="primary"
      onClick={() => {
        storage.masterCardToken.set(null);
        void navigate('/select-func', { replace: true });
      }}
    >
      {t('cardSetup.management.done')}
    </Button>
  );
}

function Overview({ view, state }: { view: ManagementView; state: GateSetupState }) {
  const { t } = useTranslation();
  const data = useQuery({
    queryKey: ['gate-super-admin-cards'],
    queryFn: () => apiPost<SuperAdminIssueData>(apiPaths.getSuperAdminIssueData, {}, { useMasterToken: true }),
    retry: false,
    enabled: view !== 'keyCards',
  });
  if (data.error instanceof RequestError && data.error.code === codes.masterCardTokenInvalid) return <Navigate to={gateStepPaths.masterCard} replace />;
  const inUse = (data.data?.cards ?? []).some((card) => card.state === 20);

  if (view === 'keyCards') {
    return (
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('cardSetup.management.customerNo')}>{state.customerNo}</Descriptions.Item>
        <Descriptions.Item label={t('cardSetup.management.keyCard')}>
          <Tag color={state.isIssueSecretCard ? 'green' : 'orange'}>{state.isIssueSecretCard ? t('cardSetup.management.issued') : t('cardSetup.management.notIssued')}</Tag>
        </Descriptions.Item>
      </Descriptions>
    );
  }
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
      {view === 'superUserCard' && data.data ? (
        inUse ? (
          <p style={{ marginTop: 12 }}>{t('cardSetup.management.reissueLater')}</p>
        ) : (
          // no card in use (none yet, or lost or frozen): issue a new one onto a blank card
          <div style={{ marginTop: 16 }}>
            <SuperAdminIssue next="/super-user-card" />
          </div>
        )
      ) : null}
      <p style={{ marginTop: 12 }}>{t('cardSetup.management.comingNext')}</p>
      <FinishButton />
    </>
  );
}

const titles: Record<ManagementView, string> = {
  adminCards: 'cardSetup.screens.systemadminLogincard',
  keyCards: 'cardSetup.screens.systemKeycard',
  superUserCard: 'cardSetup.management.superUserCardTitle',
};

/** /systemadmin-logincard, /system-keycard and /super-user-card: what is issued (the management tables come with issue 14). */
export default function CardManagementPage({ view }: { view: ManagementView }) {
  return <GateScreenFrame screen="management" titleKey={titles[view]}>{(state) => <Overview view={view} state={state} />}</GateScreenFrame>;
}

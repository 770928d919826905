import { useState } from 'react';
import { Alert, Button, Descriptions, Space, Spin, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CustomerInfo, LicenceDetail, LicencePermission, LicenceRow, LicenceSearchReply, LicenceSearchRequest } from '@campus/contracts';
import { apiPaths, licencePaging } from '@campus/contracts';
import { apiGet, apiPost } from '../../lib/request.ts';
import { useUserDetail } from '../../lib/user-detail.ts';
import { openActivation, openLicenceUpload } from './licence-dialog-state.ts';
import { beginText, canActivate, employeeCountText, endText, formalText, loseActivateText, stateText, timeText } from './licence-display.ts';
import { useDisplayContext } from './use-display-context.ts';
import { LicenceParts } from './licence-detail-view.tsx';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { titleInViewerZone } from '../../lib/time-format.ts';
import { usePaginationNames } from '../../lib/pagination-names.ts';

/** The applications and devices of one licence, fetched when its row is expanded. */
function ExpandedDetail({ id }: { id: string }) {
  const { t } = useDisplayContext();
  const query = useQuery({
    queryKey: ['licence-detail', id],
    queryFn: () => apiPost<LicenceDetail>(apiPaths.licenceDetail, { id }),
    retry: false,
  });
  if (query.isPending) return <Spin size="small" />;
  if (query.isError || !query.data) return <Alert type="error" showIcon title={t('licence.detailFailed')} />;
  return <LicenceParts detail={query.data} />;
}

/**
 * About System, Licenses tab (spec §2, §3, §6, §9): system code and customer ID, 'Add Authorization' and
 * the per-licence 'Activation' as the server's licence permission allows them (isAddOfficialPermission: an
 * installation administrator, docs/installation-and-tenants.md), the licence table for system administrators
 * (page size 15, quick jumper) with each row's applications and devices on expanding it.
 */
export default function LicencesTab() {
  const context = useDisplayContext();
  const { t } = context;
  const paginationNames = usePaginationNames();
  const user = useUserDetail();
  const isSystemAdmin = user.data?.isSystemAdmin === true;
  // a licence is the installation's: the server says who may add and activate one
  const permission = useQuery({
    queryKey: ['licence-permission'],
    queryFn: () => apiGet<LicencePermission>(apiPaths.licencePermission),
    retry: false,
    staleTime: 0,
    enabled: isSystemAdmin,
  });
  const mayAdd = isSystemAdmin && permission.data?.isAddOfficialPermission === true;
  const [page, setPage] = useState<{ index: number; size: number }>({ index: 1, size: licencePaging.pageSize });

  const customer = useQuery({ queryKey: ['customer-info'], queryFn: () => apiGet<CustomerInfo>(apiPaths.customerInfo), retry: false });
  const body: LicenceSearchRequest = { page };
  // the licence list is for system administrators (the server refuses it to anyone else): not asked for otherwise
  const licences = useQuery({
    queryKey: ['licences', body],
    queryFn: () => apiPost<LicenceSearchReply>(apiPaths.licenceSearch, body),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
    enabled: isSystemAdmin,
  });

  const rows = licences.data?.licenses ?? [];
  const columns: TableColumnsType<LicenceRow> = [
    { key: 'code', dataIndex: 'code', title: t('licence.code'), width: 170, ellipsis: true },
    { key: 'customer', dataIndex: 'customerName', title: t('licence.customer'), width: 140, ellipsis: true },
    { key: 'package', dataIndex: 'prdPkgCategory', title: t('licence.package'), width: 120, ellipsis: true },
    { key: 'formal', title: t('licence.formalOrTrial'), width: 90, render: (_v: unknown, row: LicenceRow) => formalText(row.isFormal, t) },
    { key: 'begin', title: t('licence.begin'), width: 120, render: (_v: unknown, row: LicenceRow) => beginText(row.beginTime, context) },
    { key: 'end', title: t('licence.end'), width: 120, render: (_v: unknown, row: LicenceRow) => endText(row.endTime, context) },
    { key: 'empCount', title: t('licence.empCount'), width: 90, render: (_v: unknown, row: LicenceRow) => employeeCountText(row.empCount, t) },
    { key: 'state', title: t('licence.state'), width: 100, render: (_v: unknown, row: LicenceRow) => stateText(row.state, t) },
    // wide enough for "Effectiveness" whole (a narrower column broke it mid-word, issue 48 item 15)
    { key: 'effectiveness', title: t('licence.effectiveness'), width: 120, render: (_v: unknown, row: LicenceRow) => stateText(row.effectiveness, t) },
    { key: 'activateTime', title: titleInViewerZone(t('licence.activateTime')), width: 190, render: (_v: unknown, row: LicenceRow) => timeText(row.activateTime, context) },
    { key: 'loseActivateTime', title: t('licence.loseActivateTime'), width: 120, render: (_v: unknown, row: LicenceRow) => loseActivateText(row.loseActivateTime, context) },
    // only when a licence on this page can be activated: an Actions column with nothing in it says nothing
    ...(mayAdd && rows.some(canActivate)
      ? [
          {
            key: 'actions',
            title: t('licence.actions'),
            width: 90,
            fixed: 'right' as const,
            render: (_v: unknown, row: LicenceRow) =>
              canActivate(row) ? (
                <Button type="link" size="small" aria-label={t('licence.activationOf', { code: row.code })} onClick={() => openActivation(row.id)}>
                  {t('licence.activationLink')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Descriptions
          size="small"
          column={2}
          items={[
            { key: 'systemCode', label: t('licence.systemCode'), children: customer.data?.systemCode ?? '-' },
            { key: 'customerId', label: t('licence.customerId'), children: customer.data?.customerNo ?? '-' },
          ]}
        />
        {mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={openLicenceUpload}>
            {t('licence.addAuthorization')}
          </Button>
        ) : null}
      </Space>
      {user.data && !isSystemAdmin ? (
        <Alert type="info" showIcon title={t('licence.adminsOnly')} />
      ) : licences.isError ? (
        <LoadFailedAlert title={t('licence.loadFailed')} onRetry={() => void licences.refetch()} retrying={licences.isFetching} />
      ) : (
        <Table<LicenceRow>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={rows}
          loading={licences.isFetching}
          scroll={{ x: 1400 }}
          locale={{ emptyText: licences.isPending ? ' ' : t('licence.empty') }}
          expandable={{
            expandedRowRender: (row) => <ExpandedDetail id={row.id} />,
            // the column of the expand buttons has a name for a screen reader's table navigation
            columnTitle: <span className="campus-visually-hidden">{t('licence.detailsColumn')}</span>,
          }}
          pagination={{
            ...paginationNames,
            current: page.index,
            pageSize: page.size,
            total: licences.data?.count ?? 0,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: [...licencePaging.pageSizeOptions],
            showTotal: (total) => t('licence.total', { count: total }),
            onChange: (index, size) => setPage({ index: size === page.size ? index : 1, size }),
          }}
        />
      )}
    </>
  );
}

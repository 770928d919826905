import { useState } from 'react';
import { Button, message, Space, Table, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import type { VersionEntry } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet } from '../../lib/request.ts';
import { atLeast, minimumSpinMs, versionsAsText } from './version-text.ts';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';

/** About System, Version Info tab (spec §2, §9): node, program and version of every reported program. */
export function VersionInfoTab() {
  const { t } = useTranslation();
  const [refreshing, setRefreshing] = useState(false);
  const query = useQuery({
    queryKey: ['versions'],
    queryFn: () => apiGet<VersionEntry[] | null>(apiPaths.versionList),
    retry: false,
    staleTime: 0,
  });
  const rows = Array.isArray(query.data) ? query.data : [];

  const refresh = async () => {
    if (refreshing) return;
    setRefreshing(true);
    try {
      await atLeast(query.refetch(), minimumSpinMs);
    } finally {
      setRefreshing(false);
    }
  };

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(versionsAsText(rows));
      void message.success(t('about.copied'));
    } catch {
      void message.error(t('about.copyFailed'));
    }
  };

  const columns: TableColumnsType<VersionEntry> = [
    { key: 'address', dataIndex: 'address', title: t('about.programNode') },
    { key: 'serviceName', dataIndex: 'serviceName', title: t('about.programName') },
    { key: 'version', dataIndex: 'version', title: t('about.version') },
  ];

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Tooltip title={t('about.refresh')}>
          <Button
            icon={<ReloadOutlined spin={refreshing} />}
            aria-label={t('about.refresh')}
            aria-busy={refreshing}
            disabled={refreshing}
            onClick={() => void refresh()}
          />
        </Tooltip>
        <Button icon={<CopyOutlined />} disabled={rows.length === 0} onClick={() => void copy()}>
          {t('about.copy')}
        </Button>
      </Space>
      {query.isError && !refreshing ? (
        <LoadFailedAlert title={t('about.versionsFailed')} onRetry={() => void refresh()} />
      ) : (
        <Table<VersionEntry>
          rowKey={(row) => `${row.address}|${row.serviceName}`}
          size="small"
          columns={columns}
          dataSource={rows}
          loading={query.isFetching || refreshing}
          pagination={false}
          scroll={{ y: 400 }}
          locale={{ emptyText: query.isPending ? ' ' : t('about.versionsEmpty') }}
        />
      )}
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
        {t('about.versionTotal', { total: rows.length })}
      </Typography.Text>
    </>
  );
}

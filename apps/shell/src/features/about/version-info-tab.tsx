import { useState } from 'react';
import { Button, message, Space, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { VersionEntry } from '@campus/contracts';
import { apiPaths, reportVersionRules } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiGetCounted } from '../../lib/request.ts';
import { atLeast, minimumSpinMs, versionsAsText } from './version-text.ts';
import { HeightLimitedTable } from '../../lib/height-limited-table.tsx';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { usePaginationNames } from '../../lib/pagination-names.ts';

const versionPageSize = 15;

/** Every reported program, page by page at the largest page size (for One Click Copying). */
async function allVersions(): Promise<VersionEntry[]> {
  const size = reportVersionRules.maxPageSize;
  const all: VersionEntry[] = [];
  for (let index = 1; ; index += 1) {
    const { data, recordCount } = await apiGetCounted<VersionEntry[] | null>(apiPaths.versionList, { index, size });
    all.push(...(data ?? []));
    if (!data || data.length < size || all.length >= (recordCount ?? 0)) return all;
  }
}

/** About System, Version Info tab (spec §2, §9): node, program and version of every reported program. */
export function VersionInfoTab() {
  const { t } = useTranslation();
  const paginationNames = usePaginationNames();
  const [refreshing, setRefreshing] = useState(false);
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['versions', page],
    queryFn: () => apiGetCounted<VersionEntry[] | null>(apiPaths.versionList, { index: page, size: versionPageSize }),
    retry: false,
    staleTime: 0,
  });
  const rows = Array.isArray(query.data?.data) ? query.data.data : [];
  const total = query.data?.recordCount ?? rows.length;

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
      await navigator.clipboard.writeText(versionsAsText(await allVersions()));
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
        <HeightLimitedTable<VersionEntry>
          label={t('about.versionTab')}
          bodyHeight={400}
          rowKey={(row) => `${row.address}|${row.serviceName}`}
          size="small"
          columns={columns}
          dataSource={rows}
          loading={query.isFetching || refreshing}
          pagination={total > versionPageSize ? { ...paginationNames, current: page, pageSize: versionPageSize, total, showSizeChanger: false, onChange: setPage } : false}
          locale={{ emptyText: query.isPending ? ' ' : t('about.versionsEmpty') }}
        />
      )}
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
        {t('about.versionTotal', { count: total })}
      </Typography.Text>
    </>
  );
}

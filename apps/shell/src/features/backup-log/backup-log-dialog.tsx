import { useId, useState } from 'react';
import { Button, DatePicker, Modal, Space } from 'antd';
import type { GetProps, TableColumnsType } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { BackupLogRow, BackupLogSearchRequest } from '@campus/contracts';
import { apiPaths, backupLogPaging } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { apiPostReply, RequestError } from '../../lib/request.ts';
import { closeBackupLogs, useBackupLogDialog } from './backup-log-state.ts';
import { backupLogSearchBody, filterFromRange, formatBackupTime, formatFileSize, noFilter } from './backup-log-format.ts';
import type { BackupLogFilter } from './backup-log-format.ts';
import { BackupLogDetailModal } from './backup-log-detail-modal.tsx';
import { HeightLimitedTable } from '../../lib/height-limited-table.tsx';
import { LoadFailedAlert } from '../../lib/load-failed-alert.tsx';
import { returnFocus } from '../../lib/focus-return.ts';
import { titleInViewerZone } from '../../lib/time-format.ts';
import { usePaginationNames } from '../../lib/pagination-names.ts';

type RangeValue = GetProps<typeof DatePicker.RangePicker>['value'];

interface BackupLogPage {
  rows: BackupLogRow[];
  total: number;
}

/** SearchBackupLog with its recordCount (the plain call would drop it); a failed code rejects with the server's text. */
async function searchBackupLogs(body: BackupLogSearchRequest): Promise<BackupLogPage> {
  const reply = await apiPostReply<BackupLogRow[] | null>(apiPaths.backupLogSearch, body);
  const rows = Array.isArray(reply.data) ? reply.data : [];
  return { rows, total: reply.recordCount ?? rows.length };
}

/** The server's own text for a refused call; none for network and HTTP failures (their message is not for people). */
function serverMessage(error: unknown): string | null {
  return error instanceof RequestError && error.status === null && error.code !== null && error.message ? error.message : null;
}

/**
 * The viewer: time filter, table with paging. Mounted only while the dialog is open, so it starts
 * afresh (no filter, page 1) each time.
 */
function BackupLogViewer({ onDetail }: { onDetail: (row: BackupLogRow) => void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const paginationNames = usePaginationNames();
  const rangeId = useId();
  // the picker is controlled with null for "nothing picked": undefined would leave it uncontrolled, and Reset could not clear it
  const [range, setRange] = useState<RangeValue>(null);
  const [filter, setFilter] = useState<BackupLogFilter>(noFilter);
  const [page, setPage] = useState<{ index: number; size: number }>({ index: 1, size: backupLogPaging.pageSize });

  const body = backupLogSearchBody(filter, page);
  const query = useQuery({
    queryKey: ['backup-logs', body],
    queryFn: () => searchBackupLogs(body),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

  const search = () => {
    setFilter(filterFromRange(range ? [range[0]?.valueOf() ?? null, range[1]?.valueOf() ?? null] : null));
    setPage((current) => ({ ...current, index: 1 }));
  };
  const reset = () => {
    setRange(null);
    setFilter(noFilter);
    setPage((current) => ({ ...current, index: 1 }));
  };

  const columns: TableColumnsType<BackupLogRow> = [
    { key: 'name', dataIndex: 'name', title: t('backupLog.name'), width: 250, ellipsis: true },
    { key: 'backupTime', dataIndex: 'backupTime', title: titleInViewerZone(t('backupLog.backupTime')), width: 200, render: (value: number) => formatBackupTime(value, language) },
    { key: 'filePath', dataIndex: 'filePath', title: t('backupLog.filePath'), width: 190, ellipsis: true },
    { key: 'addr', dataIndex: 'addr', title: t('backupLog.addr'), width: 110, ellipsis: true },
    { key: 'retentionDay', dataIndex: 'retentionDay', title: t('backupLog.retentionDay'), width: 110, align: 'right' },
    { key: 'size', dataIndex: 'size', title: t('backupLog.size'), width: 110, align: 'right', render: (value: number) => formatFileSize(value) },
    { key: 'remarks', dataIndex: 'remarks', title: t('backupLog.remarks'), width: 220, ellipsis: true },
    {
      key: 'actions',
      title: t('backupLog.actions'),
      width: 80,
      fixed: 'right',
      render: (_value: unknown, row: BackupLogRow) => (
        <Button type="link" size="small" aria-label={t('backupLog.detailOf', { name: row.name })} onClick={() => onDetail(row)}>
          {t('backupLog.detail')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <label htmlFor={rangeId}>{titleInViewerZone(t('backupLog.timeRange'))}</label>
        <DatePicker.RangePicker
          id={{ start: rangeId }}
          value={range}
          onChange={setRange}
          showTime
          allowEmpty={[true, true]}
          placeholder={[t('backupLog.startTime'), t('backupLog.endTime')]}
        />
        <Button type="primary" onClick={search}>
          {t('backupLog.search')}
        </Button>
        <Button onClick={reset}>{t('backupLog.reset')}</Button>
      </Space>
      {query.isError ? (
        <LoadFailedAlert
          title={t('backupLog.loadFailed')}
          description={serverMessage(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <HeightLimitedTable<BackupLogRow>
          label={t('backupLog.title')}
          bodyHeight={backupLogPaging.tableHeight}
          scrollX={1260}
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={query.data?.rows ?? []}
          loading={query.isFetching}
          locale={{ emptyText: query.isPending ? ' ' : t('backupLog.empty') }}
          pagination={{
            ...paginationNames,
            current: page.index,
            pageSize: page.size,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [...backupLogPaging.pageSizeOptions],
            showTotal: (total) => t('backupLog.total', { count: total }),
            onChange: (index, size) => setPage({ index: size === page.size ? index : 1, size }),
          }}
        />
      )}
    </>
  );
}

/**
 * Backup Logs (spec §2, §3, §7; width 1000), opened from the user menu on private deployments. The
 * detail modal sits beside the list's dialog and opens above it; closing the list closes the detail.
 */
export default function BackupLogDialog() {
  const { t } = useTranslation();
  const open = useBackupLogDialog((state) => state.open);
  const [detail, setDetail] = useState<BackupLogRow | null>(null);
  const close = () => {
    setDetail(null);
    closeBackupLogs();
  };
  return (
    <>
      <Modal title={t('backupLog.title')} open={open} width={1000} footer={null} onCancel={close} destroyOnHidden focusable={{ focusTriggerAfterClose: false }} afterClose={returnFocus}>
        {open ? <BackupLogViewer onDetail={setDetail} /> : null}
      </Modal>
      <BackupLogDetailModal row={open ? detail : null} onClose={() => setDetail(null)} />
    </>
  );
}

import { Tag } from 'antd';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { CardOption } from '@campus/contracts';
import { cardStates, cardTablePaging } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { defaultCardSort } from './card-search.ts';
import type { CardPage, CardSort, CardSortField } from './card-search.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';
import { titleInViewerZone, viewerTime } from '../../lib/time-format.ts';
import { usePaginationNames } from '../../lib/pagination-names.ts';
import { HeightLimitedTable } from '../../lib/height-limited-table.tsx';

// solid tags with white text, each at least 4.5:1 (antd's light green and orange presets are not)
const stateColours: Record<number, string> = {
  [cardStates.inUse]: '#237804',
  [cardStates.lost]: '#ad4e00',
  [cardStates.frozen]: '#0958d9',
  [cardStates.damaged]: '#a8071a',
};

const sortableFields: readonly CardSortField[] = ['createTime', 'state', 'fixedNo', 'num'];

/** When the card was issued, to the second, in the interface language, on the viewer's clock (the column names it). */
function issuedAt(epochMs: number, language: string): string {
  return viewerTime(epochMs, language, 'mediumDateTime');
}

export interface CardTableViewProps {
  kind: CardTableKind;
  rows: CardRow[];
  total: number;
  loading: boolean;
  /** Null while one card (the card on the reader) is shown: no paging. */
  page: CardPage | null;
  sort: CardSort;
  kindOptions: CardOption[];
  selectedIds: string[];
  onSelect: (ids: string[]) => void;
  onPageSort: (page: CardPage, sort: CardSort) => void;
}

/** The card table (spec §2, §9): page size 15 with its options and quick jumper, height 400, server-side order. */
export function CardTableView({ kind, rows, total, loading, page, sort, kindOptions, selectedIds, onSelect, onPageSort }: CardTableViewProps) {
  const { t, i18n } = useTranslation();
  const order = (field: CardSortField) => (sort.field === field ? (sort.isAsc ? 'ascend' : 'descend') : null);
  const kindLabel = (value: number) => kindOptions.find((option) => option.value === value)?.label ?? String(value);

  const columns: TableColumnsType<CardRow> = [
    { key: 'fixedNo', dataIndex: 'fixedNo', title: t('cardManagement.column.fixedNo'), sorter: true, sortOrder: order('fixedNo'), width: 180 },
    ...(kind === 'adminCards'
      ? ([
          { key: 'num', dataIndex: 'num', title: t('cardManagement.column.num'), sorter: true, sortOrder: order('num'), width: 120 },
          { key: 'oprtNo', dataIndex: 'oprtNo', title: t('cardManagement.column.oprtNo'), ellipsis: true },
          { key: 'oprtName', dataIndex: 'oprtName', title: t('cardManagement.column.oprtName'), ellipsis: true },
        ] satisfies TableColumnsType<CardRow>)
      : []),
    { key: 'kindNum', dataIndex: 'kindNum', title: t('cardManagement.column.kind'), width: 140, render: (value: number) => kindLabel(value) },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('cardManagement.column.state'),
      sorter: true,
      sortOrder: order('state'),
      width: 120,
      render: (value: number) => <Tag color={stateColours[value]}>{t(`cardSetup.cardState.${value}`, { defaultValue: String(value) })}</Tag>,
    },
    { key: 'createTime', dataIndex: 'createTime', title: titleInViewerZone(t('cardManagement.column.createTime')), sorter: true, sortOrder: order('createTime'), width: 220, render: (value: number) => issuedAt(value, i18n.language) },
  ];

  const paginationNames = usePaginationNames();
  const pagination: TablePaginationConfig | false = page
    ? {
        ...paginationNames,
        current: page.index,
        pageSize: page.size,
        total,
        showSizeChanger: true,
        showQuickJumper: true,
        pageSizeOptions: [...cardTablePaging.pageSizeOptions],
        showTotal: (count) => t('cardManagement.total', { count }),
      }
    : false;

  return (
    <HeightLimitedTable<CardRow>
      label={t(cardTableKinds[kind].titleKey)}
      bodyHeight={cardTablePaging.tableHeight}
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={pagination}
      // never back to "unsorted": the server orders by issue time (newest first) by default
      sortDirections={['ascend', 'descend', 'ascend']}
      locale={{ emptyText: loading ? ' ' : t('cardManagement.empty') }}
      rowSelection={{
        type: cardTableKinds[kind].selection,
        selectedRowKeys: selectedIds,
        onChange: (keys) => onSelect(keys.map(String)),
        getCheckboxProps: (row) => ({ 'aria-label': t('cardManagement.selectCard', { fixedNo: row.fixedNo }) }),
        // antd names it "Select all" in every language
        getTitleCheckboxProps: () => ({ 'aria-label': t('cardManagement.selectAllCards') }),
      }}
      onChange={(next, _filters, sorter) => {
        const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<CardRow> | undefined;
        const field = one?.order && sortableFields.includes(one.columnKey as CardSortField) ? (one.columnKey as CardSortField) : null;
        const nextSort: CardSort = field ? { field, isAsc: one?.order === 'ascend' } : defaultCardSort;
        const size = next.pageSize ?? page?.size ?? cardTablePaging.pageSize;
        const sameView = size === page?.size && nextSort.field === sort.field && nextSort.isAsc === sort.isAsc;
        onPageSort({ index: sameView ? (next.current ?? 1) : 1, size }, nextSort);
      }}
    />
  );
}

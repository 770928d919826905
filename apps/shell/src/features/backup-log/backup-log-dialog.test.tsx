import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BackupLogRow, BackupLogSearchRequest } from '@campus/contracts';
import { apiPaths, codes } from '@campus/contracts';
import { i18n } from '../../lib/i18n.ts';
import { http, registerNotifier, type Transport } from '../../lib/request.ts';
import * as storage from '../../lib/storage.ts';
import { openBackupLogs, useBackupLogDialog } from './backup-log-state.ts';
import BackupLogDialog from './backup-log-dialog.tsx';
import { formatBackupTime } from './backup-log-format.ts';


const hour = 3_600_000;
const newest = new Date(2026, 10, 21, 2, 0, 37).getTime();

/** 23 backups, newest first, one an hour; the first is 12.4 MB. */
const allRows: BackupLogRow[] = Array.from({ length: 23 }, (_, i) => ({
  id: `b${i}`,
  name: `campus-db-${i}.sql.gz`,
  backupTime: newest - i * hour,
  logTime: newest - i * hour + 25_000,
  filePath: '/var/backups/campus/db/',
  addr: '127.0.0.1',
  retentionDay: i % 2 === 0 ? 30 : 90,
  size: i === 0 ? 13_002_342 : 50_000_000 + i,
  remarks: i === 0 ? 'Scheduled nightly database dump' : `row ${i}`,
}));

type Failure = { kind: 'code'; code: number; msg: string } | { kind: 'http'; status: number } | null;

let bodies: BackupLogSearchRequest[] = [];
let failure: Failure = null;
let rows: BackupLogRow[] = allRows;
const toasts: string[] = [];

function fakeServer(): Transport {
  return async (config) => {
    const reply = (data: unknown, status = 200) => ({ data, status });
    if (config.url !== apiPaths.backupLogSearch) return reply({ code: codes.notFound, msg: 'not found', data: null });
    const body = JSON.parse(String(config.data)) as BackupLogSearchRequest;
    bodies.push(body);
    if (failure?.kind === 'code') return reply({ code: failure.code, msg: failure.msg, data: null });
    if (failure?.kind === 'http') return reply({ code: codes.internalError, msg: 'boom', data: null }, failure.status);
    const matching = rows.filter((row) => (body.startTime === undefined || row.backupTime >= body.startTime) && (body.endTime === undefined || row.backupTime <= body.endTime));
    const { index, size } = body.pageInfo;
    return reply({ code: 0, msg: 'ok', data: matching.slice((index - 1) * size, index * size), recordCount: matching.length });
  };
}

function renderDialog() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <BackupLogDialog />
    </QueryClientProvider>,
  );
  act(() => openBackupLogs());
  return view;
}

const button = (name: string, scope: HTMLElement = document.body) => within(scope).getByText(name, { selector: 'button, button *' }).closest('button')!;
const lastBody = () => bodies.at(-1);
/**
 * The detail dialog, found by its title: under NODE_ENV=test antd gives every dialog title the same id
 * ('test-id'), so a role query by name would resolve a second dialog to the first one's title.
 */
const detailDialog = async () => (await screen.findByText('Backup Log Detail', { selector: '.ant-modal-title' })).closest<HTMLElement>('[role="dialog"]')!;
const detailShown = () => screen.queryByText('Backup Log Detail', { selector: '.ant-modal-title' }) !== null;
const bodyRows = () => Array.from(document.querySelectorAll('.ant-table-tbody tr.ant-table-row'));
const shownNames = () => bodyRows().map((row) => row.querySelector('td')?.textContent);

/** Types both ends of the range picker in its own format, each confirmed with Enter; returns its two inputs. */
async function pickRange(from: string, to: string): Promise<HTMLInputElement[]> {
  const inputs = Array.from(document.querySelectorAll<HTMLInputElement>('.ant-picker-range input'));
  for (const [input, value] of [
    [inputs[0]!, from],
    [inputs[1]!, to],
  ] as const) {
    await userEvent.click(input);
    await userEvent.type(input, `${value}{Enter}`);
  }
  await waitFor(() => expect(inputs[0]).toHaveValue(from));
  await waitFor(() => expect(inputs[1]).toHaveValue(to));
  return inputs;
}

async function loaded(count = 10) {
  await waitFor(() => expect(bodyRows()).toHaveLength(count));
}

beforeEach(async () => {
  bodies = [];
  failure = null;
  rows = allRows;
  toasts.length = 0;
  http.transport = fakeServer();
  registerNotifier({ error: (text) => toasts.push(text) });
  storage.accessToken.set('tok');
  storage.tenantCode.set('1001');
  useBackupLogDialog.setState({ open: false });
  await i18n.changeLanguage('en-US');
});

afterEach(() => {
  localStorage.clear();
  useBackupLogDialog.setState({ open: false });
});

describe('BackupLogDialog: the table', () => {
  it('opens titled, asks for the first page of 10 without a time filter, and shows rows and the total', async () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Backup Logs' })).toBeInTheDocument();
    await loaded();
    expect(bodies).toEqual([{ pageInfo: { index: 1, size: 10 } }]);
    expect(screen.getByText('23 records in total')).toBeInTheDocument();
    for (const title of ['File name', 'Backup time', 'Path', 'Host', 'Retention days', 'File size', 'Remarks']) {
      expect(document.querySelector('.ant-table-thead')).toHaveTextContent(title);
    }
    const first = bodyRows()[0]!;
    expect(first).toHaveTextContent('campus-db-0.sql.gz');
    expect(first).toHaveTextContent(formatBackupTime(newest, 'en-US'));
    expect(first).toHaveTextContent('/var/backups/campus/db/');
    expect(first).toHaveTextContent('127.0.0.1');
    expect(first).toHaveTextContent('12.4 MB');
    expect(first).toHaveTextContent('Scheduled nightly database dump');
  });

  it('paging sends the page asked for; a new page size starts again at page 1', async () => {
    renderDialog();
    await loaded();
    await userEvent.click(screen.getByTitle('3'));
    await loaded(3);
    expect(lastBody()).toEqual({ pageInfo: { index: 3, size: 10 } });
    expect(shownNames()).toEqual(['campus-db-20.sql.gz', 'campus-db-21.sql.gz', 'campus-db-22.sql.gz']);
    // the size changer offers the sizes of spec §9
    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select')!.querySelector('input, .ant-select-selector') ?? document.querySelector('.ant-pagination-options .ant-select')!);
    const options = await waitFor(() => {
      const found = Array.from(document.querySelectorAll('.ant-select-item-option')).map((option) => option.textContent);
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(options).toEqual(['10 / page', '20 / page', '50 / page', '100 / page', '500 / page']);
    await userEvent.click(screen.getByTitle('20 / page'));
    await loaded(20);
    expect(lastBody()).toEqual({ pageInfo: { index: 1, size: 20 } });
    expect(screen.getByText('23 records in total')).toBeInTheDocument();
  });

  it('Search sends the picked range, Reset clears it; both start again at page 1', async () => {
    renderDialog();
    await loaded();
    await userEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastBody()).toEqual({ pageInfo: { index: 2, size: 10 } }));
    const [start, end] = await pickRange('2026-11-20 20:00:00', '2026-11-21 00:00:00');
    await userEvent.click(button('Search'));
    const from = new Date(2026, 10, 20, 20, 0, 0).getTime();
    const to = new Date(2026, 10, 21, 0, 0, 0).getTime() + 999;
    await waitFor(() => expect(lastBody()).toEqual({ pageInfo: { index: 1, size: 10 }, startTime: from, endTime: to }));
    // rows at 20:00:37, 21:00:37, 22:00:37 and 23:00:37
    await loaded(4);
    expect(screen.getByText('4 records in total')).toBeInTheDocument();
    await userEvent.click(button('Reset'));
    await waitFor(() => expect(lastBody()).toEqual({ pageInfo: { index: 1, size: 10 } }));
    await loaded();
    expect(start).toHaveValue('');
    expect(end).toHaveValue('');
  });

  it("on the user's own clock (UTC+8 from the user settings) in a browser elsewhere: titles name it, rows and the filter use it", async () => {
    storage.utcDiff.set(480);
    const browserOffset = new Date(newest).getTimezoneOffset(); // the test machine's zone: the browser's
    renderDialog();
    await loaded();
    expect(document.querySelector('.ant-table-thead')).toHaveTextContent('Backup time (UTC+8)');
    expect(screen.getByText('Backup time (UTC+8)', { selector: 'label' })).toBeInTheDocument();
    // the newest backup, 2026-11-21 02:00:37 on the browser's clock, on the user's clock
    const onUserClock = newest + (480 + browserOffset) * 60_000;
    const hours = new Date(onUserClock).getUTCHours();
    expect(bodyRows()[0]).toHaveTextContent(new RegExp(`${(hours % 12) || 12}:00:37\\s(AM|PM)`));
    await pickRange('2026-11-20 20:00:00', '2026-11-21 00:00:00');
    await userEvent.click(button('Search'));
    // the times picked are read on the user's clock: 20:00 at UTC+8 is 12:00 UTC
    await waitFor(() => expect(lastBody()).toEqual({ pageInfo: { index: 1, size: 10 }, startTime: Date.UTC(2026, 10, 20, 12), endTime: Date.UTC(2026, 10, 20, 16) + 999 }));
  });

  it('nothing found: says so', async () => {
    rows = [];
    renderDialog();
    expect(await screen.findByText('No backup logs found')).toBeInTheDocument();
    expect(bodyRows()).toHaveLength(0);
  });

  it('a refused call shows the server text and a Retry that loads again', async () => {
    failure = { kind: 'code', code: codes.noPermission, msg: 'No permission' };
    renderDialog();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The backup logs could not be loaded');
    expect(alert).toHaveTextContent('No permission');
    failure = null;
    await userEvent.click(button('Retry', alert));
    await loaded();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bodies).toHaveLength(2);
  });

  it('a server error (HTTP 500) shows the failure without the technical message', async () => {
    failure = { kind: 'http', status: 500 };
    renderDialog();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The backup logs could not be loaded');
    expect(alert).not.toHaveTextContent('status code');
    expect(button('Retry', alert)).toBeEnabled();
  });

  it('Esc closes it through the store', async () => {
    renderDialog();
    await loaded();
    await userEvent.keyboard('{Escape}');
    expect(useBackupLogDialog.getState().open).toBe(false);
  });

  it('the close button closes it through the store', async () => {
    renderDialog();
    await loaded();
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Backup Logs' })).getByRole('button', { name: /close/i }));
    expect(useBackupLogDialog.getState().open).toBe(false);
  });

  it('speaks the user language (zh-MO)', async () => {
    await i18n.changeLanguage('zh-MO');
    renderDialog();
    expect(screen.getByRole('dialog', { name: '備份日誌' })).toBeInTheDocument();
    await loaded();
    expect(screen.getByText('共 23 筆記錄')).toBeInTheDocument();
    expect(document.querySelector('.ant-table-thead')).toHaveTextContent('檔案名稱');
  });
});

describe('BackupLogDialog: the detail', () => {
  it('Detail opens every field of the row from the keyboard; its Close keeps the list', async () => {
    renderDialog();
    await loaded();
    const link = screen.getByRole('button', { name: 'Detail of campus-db-0.sql.gz' });
    link.focus();
    await userEvent.keyboard('{Enter}');
    const detail = await detailDialog();
    const field = (label: string) => {
      const th = within(detail).getByText(label, { selector: 'th, th *' }).closest('th')!;
      return th.nextElementSibling!.textContent;
    };
    expect(field('Log time')).toBe(formatBackupTime(newest + 25_000, 'en-US', true));
    expect(field('File name')).toBe('campus-db-0.sql.gz');
    expect(field('Backup time')).toBe(formatBackupTime(newest, 'en-US', true));
    expect(field('Backup time')).toMatch(/ UTC([+-]\d+(:\d\d)?)?$/);
    expect(field('Path')).toBe('/var/backups/campus/db/');
    expect(field('Host')).toBe('127.0.0.1');
    expect(field('Retention days')).toBe('30');
    expect(field('File size')).toBe('12.4 MB (13,002,342 bytes)');
    expect(field('Remarks')).toBe('Scheduled nightly database dump');
    // Esc is not tried here: under NODE_ENV=test antd registers every dialog's Esc under one id, so
    // only the first dialog opened would hear it (in a browser the topmost one does)
    within(detail).getByRole('button', { name: /close/i }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(detailShown()).toBe(false));
    expect(useBackupLogDialog.getState().open).toBe(true);
    expect(screen.getByRole('dialog', { name: 'Backup Logs' })).toBeInTheDocument();
  });

  it('another row shows its own fields', async () => {
    renderDialog();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Detail of campus-db-1.sql.gz' }));
    const detail = await detailDialog();
    expect(detail).toHaveTextContent('campus-db-1.sql.gz');
    expect(detail).toHaveTextContent('90');
    expect(detail).toHaveTextContent('47.7 MB (50,000,001 bytes)');
  });
});

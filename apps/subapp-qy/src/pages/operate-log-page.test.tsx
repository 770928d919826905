import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OperationLogRow, OperationLogSearchRequest } from '@campus/contracts';
import { apiPaths, operationLogPaging } from '@campus/contracts';
import { createFakeApi, deferred, httpError, mountApp } from '../test-support.ts';

const row = (over: Partial<OperationLogRow> = {}): OperationLogRow => ({
  id: 'r1',
  tenantCode: '1001',
  account: 'sysadmin',
  action: 'login',
  result: 'success',
  clientIp: '10.0.0.7',
  detail: null,
  createdAt: Date.UTC(2026, 10, 20, 0, 30, 15),
  ...over,
});

/** The log answering every search with these rows and this total. */
function logApi(rows: OperationLogRow[] = [row()], recordCount = 42) {
  const fake = createFakeApi();
  fake.post.mockResolvedValue({ data: rows, recordCount });
  const bodies = () => fake.post.mock.calls.map(([, body]) => body as OperationLogSearchRequest);
  return { ...fake, bodies };
}

async function openLog(api = logApi(), language: 'en-US' | 'zh-CN' | 'zh-MO' = 'en-US') {
  const app = await mountApp({ path: '/qy/operate-log', api: api.api, utcDiff: 480, language });
  await waitFor(() => expect(api.post).toHaveBeenCalled());
  return app;
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('operation log page', () => {
  it('loads the first page with the default size and shows the rows on the user clock', async () => {
    const api = logApi([row(), row({ id: 'r2', account: 'staff', action: 'lock', result: 'locked', detail: 'five failures' })]);
    await openLog(api);
    expect(api.post).toHaveBeenCalledWith(apiPaths.operationLogSearch, { page: { index: 1, size: operationLogPaging.pageSize } });
    const table = await screen.findByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((th) => th.textContent);
    // the column and the filters name the clock the times are on
    expect(headers).toEqual(['Time (UTC+8)', 'Operator', 'Action', 'Result', 'Client address', 'Detail']);
    await within(table).findByText('five failures');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => within(tr).getAllByRole('cell').map((td) => td.textContent));
    expect(cells).toEqual([
      ['2026-11-20 08:30:15', 'sysadmin', 'Sign-in', 'Success', '10.0.0.7', '—'],
      ['2026-11-20 08:30:15', 'staff', 'Account locked', 'Locked', '10.0.0.7', 'five failures'],
    ]);
    expect(screen.getByText('42 records')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
  });

  it('Search sends exactly the filters of the form, on the user clock', async () => {
    const api = logApi();
    await openLog(api);
    fireEvent.change(input('From (UTC+8)'), { target: { value: '2026-11-20T08:00' } });
    fireEvent.change(input('To (UTC+8)'), { target: { value: '2026-11-20T09:30' } });
    fireEvent.change(input('Operator'), { target: { value: '  Sys ' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'lock' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(2));
    expect(api.bodies()[1]).toEqual({
      page: { index: 1, size: 20 },
      startTime: Date.UTC(2026, 10, 20, 0, 0),
      endTime: Date.UTC(2026, 10, 20, 1, 30) + 59_999,
      operator: 'Sys',
      action: 'lock',
    });
  });

  it('pages forward and back with the searched filters, and a new page size starts at page 1', async () => {
    const api = logApi();
    await openLog(api);
    fireEvent.change(input('Operator'), { target: { value: 'staff' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(2));
    // an edit that was not searched does not leak into paging
    fireEvent.change(input('Operator'), { target: { value: 'other' } });
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(3));
    expect(api.bodies()[2]).toEqual({ page: { index: 2, size: 20 }, operator: 'staff' });
    await screen.findByText('Page 2 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(4));
    expect(api.bodies()[3]).toEqual({ page: { index: 1, size: 20 }, operator: 'staff' });
    await screen.findByText('Page 1 of 3');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    const sizes = [...(screen.getByLabelText('Rows per page') as HTMLSelectElement).options].map((o) => Number(o.value));
    expect(sizes).toEqual([...operationLogPaging.pageSizeOptions]);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(5));
    expect(api.bodies()[4]).toEqual({ page: { index: 1, size: 50 }, operator: 'staff' });
    await screen.findByText('Page 1 of 1');
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Reset empties the form and searches without filters', async () => {
    const api = logApi();
    await openLog(api);
    fireEvent.change(input('From (UTC+8)'), { target: { value: '2026-11-20T08:00' } });
    fireEvent.change(input('Operator'), { target: { value: 'staff' } });
    fireEvent.change(screen.getByLabelText('Action'), { target: { value: 'logout' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(2));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(api.post).toHaveBeenCalledTimes(3));
    expect(api.bodies()[2]).toEqual({ page: { index: 1, size: 20 } });
    expect(input('From (UTC+8)').value).toBe('');
    expect(input('Operator').value).toBe('');
    expect((screen.getByLabelText('Action') as HTMLSelectElement).value).toBe('');
  });

  it('refuses an end before the start in the form, without a call', async () => {
    const api = logApi();
    await openLog(api);
    await screen.findByText('42 records');
    fireEvent.change(input('From (UTC+8)'), { target: { value: '2026-11-20T10:00' } });
    fireEvent.change(input('To (UTC+8)'), { target: { value: '2026-11-20T09:59' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The end time must not be before the start time.');
    expect(input('To (UTC+8)').getAttribute('aria-invalid')).toBe('true');
    expect(input('To (UTC+8)').getAttribute('aria-describedby')).toBe(alert.id);
    expect(api.post).toHaveBeenCalledTimes(1);
    // correcting the range clears the message
    fireEvent.change(input('To (UTC+8)'), { target: { value: '2026-11-20T10:00' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says so when the user may not read the log (HTTP 403)', async () => {
    const api = logApi();
    api.post.mockRejectedValue(httpError(403, 131));
    await openLog(api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('You do not have permission to view the operation log');
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('other failures show an error with Retry', async () => {
    const api = logApi();
    api.post.mockRejectedValueOnce(httpError(500)).mockResolvedValueOnce({ data: [row()], recordCount: 1 });
    await openLog(api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The operation log could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('1 record');
    expect(api.bodies()[1]).toEqual(api.bodies()[0]);
  });

  it('shows an empty state', async () => {
    await openLog(logApi([], 0));
    await screen.findByText('No operation log entries match these filters.');
    expect(screen.getByText('0 records')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1')).toBeTruthy();
  });

  it('shows loading while a search runs', async () => {
    const api = logApi();
    const answer = deferred<{ data: OperationLogRow[]; recordCount: number }>();
    api.post.mockReturnValueOnce(answer.promise);
    await openLog(api);
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(screen.getByRole('table').parentElement?.getAttribute('aria-busy')).toBe('true');
    answer.resolve({ data: [row()], recordCount: 1 });
    await screen.findByText('1 record');
    expect(screen.getByRole('table').parentElement?.getAttribute('aria-busy')).toBe('false');
  });

  it('relabels the form, the table and the rows when the language changes', async () => {
    const app = await openLog(logApi());
    await screen.findByText('42 records');
    await app.setLanguage('zh-CN');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('操作日志');
    expect(screen.getByRole('button', { name: '查询' })).toBeTruthy();
    expect(screen.getByLabelText('开始时间（UTC+8）')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '客户端地址' })).toBeTruthy();
    expect(screen.getByText('共 42 条记录')).toBeTruthy();
    expect(screen.getByRole('cell', { name: '登录' })).toBeTruthy();
    await app.setLanguage('zh-MO');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('操作日誌');
    expect(screen.getByRole('cell', { name: '登入' })).toBeTruthy();
    expect(screen.getByRole('option', { name: '帳號鎖定' })).toBeTruthy();
  });

  it('opens in the language of the broadcast, and the permission message is translated', async () => {
    const api = logApi();
    api.post.mockRejectedValue(httpError(403, 131));
    await openLog(api, 'zh-MO');
    expect((await screen.findByRole('alert')).textContent).toBe('您沒有查看操作日誌的權限');
  });
});

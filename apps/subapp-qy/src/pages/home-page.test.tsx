import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { HomeFigures } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { createFakeApi, deferred, mountApp } from '../test-support.ts';

const figures = (over: Partial<HomeFigures> = {}): HomeFigures => ({
  employeeCount: 1234,
  departmentCount: 12,
  activeSessionCount: 3,
  licence: { isNormal: true, licenseType: 2, licenseState: 5 },
  ...over,
});

/** The fake server: GetFigures answers with `answers` in turn; the user detail with a tenant's name. */
function serveFigures(get: ReturnType<typeof createFakeApi>['get'], ...answers: (() => { data: HomeFigures })[]) {
  let next = 0;
  get.mockImplementation(async (path) => {
    if (path === apiPaths.userDetail) return { data: { tenantName: 'Demo Campus' } };
    const answer = answers[Math.min(next, answers.length - 1)]!;
    next += 1;
    return answer();
  });
}

function figure(name: string): string | null | undefined {
  const term = screen.getByText(name, { selector: 'dt' });
  return term.parentElement?.querySelector('dd')?.textContent;
}

describe('home page', () => {
  it('greets the user by name on their clock and shows the live figures', async () => {
    // 01:00 UTC is 09:00 for a user at UTC+8, whatever the browser zone
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 20, 1, 0));
    const { api, get } = createFakeApi();
    get.mockResolvedValue({ data: figures() });
    await mountApp({ api, utcDiff: 480 });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Good morning, Ada');
    await screen.findByText('1,234');
    expect(get).toHaveBeenCalledWith(apiPaths.qyHomeFigures);
    expect(figure('Employees')).toBe('1,234');
    expect(figure('Departments')).toBe('12');
    expect(figure('Signed-in sessions')).toBe('3');
    expect(figure('Licence')).toBe('Normal');
  });

  it('greets in the evening and the afternoon too', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 20, 12, 0));
    const { api, get } = createFakeApi();
    get.mockResolvedValue({ data: figures() });
    const app = await mountApp({ api, utcDiff: 480 });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Good evening, Ada');
    await app.unmount();
    await mountApp({ api, utcDiff: 0 });
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Good afternoon, Ada');
  });

  it('shows a loading state until the figures arrive', async () => {
    const { api, get } = createFakeApi();
    const answer = deferred<{ data: HomeFigures }>();
    get.mockReturnValue(answer.promise);
    await mountApp({ api });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    answer.resolve({ data: figures() });
    await screen.findByText('1,234');
  });

  it('shows the licence state as a word', async () => {
    const { api, get } = createFakeApi();
    get.mockResolvedValue({ data: figures({ licence: { isNormal: false, licenseType: 1, licenseState: 5 } }) });
    await mountApp({ api });
    await waitFor(() => expect(figure('Licence')).toBe('Tampered'));
  });

  it('Refresh asks again and shows the new figures', async () => {
    const { api, get } = createFakeApi();
    serveFigures(get, () => ({ data: figures() }), () => ({ data: figures({ employeeCount: 1300 }) }));
    await mountApp({ api });
    await screen.findByText('1,234');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('1,300');
    expect(get.mock.calls.filter(([path]) => path === apiPaths.qyHomeFigures)).toHaveLength(2);
  });

  it('shows an error with Retry, and Retry loads the figures', async () => {
    const { api, get } = createFakeApi();
    serveFigures(
      get,
      () => {
        throw new Error('Network Error');
      },
      () => ({ data: figures() }),
    );
    await mountApp({ api });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The figures could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('1,234');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(get.mock.calls.filter(([path]) => path === apiPaths.qyHomeFigures)).toHaveLength(2);
  });

  it('relabels when the shell switches language', async () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 20, 1, 0));
    const { api, get } = createFakeApi();
    get.mockResolvedValue({ data: figures() });
    const app = await mountApp({ api, utcDiff: 480 });
    await screen.findByText('1,234');
    await app.setLanguage('zh-CN');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('早上好，Ada');
    expect(figure('员工')).toBe('1,234');
    expect(figure('授权')).toBe('正常');
    await app.setLanguage('zh-MO');
    expect(screen.getByRole('button', { name: '重新整理' })).toBeTruthy();
    expect(figure('員工')).toBe('1,234');
    // the figures are numbers: not asked for again
    expect(get.mock.calls.filter(([path]) => path === apiPaths.qyHomeFigures)).toHaveLength(1);
  });

  it("shows the tenant's name as the server gives it in the current language, again after a switch, without a reload", async () => {
    const { api, get } = createFakeApi();
    // the shell's request layer sends the shell's current language: the fake server answers in it
    let serverLanguage = 'en-US';
    const tenantNames: Record<string, string> = { 'en-US': 'Demo Campus', 'zh-CN': '演示园区', 'zh-MO': '示範園區' };
    get.mockImplementation(async (path) => {
      if (path === apiPaths.userDetail) return { data: { tenantName: tenantNames[serverLanguage] } };
      return { data: figures() };
    });
    const app = await mountApp({ api });
    const intro = () => screen.getByText(/Demo Campus|演示园区|示範園區/).textContent;
    await waitFor(() => expect(intro()).toBe('Here is how Demo Campus looks right now.'));
    serverLanguage = 'zh-CN';
    await app.setLanguage('zh-CN');
    await waitFor(() => expect(intro()).toBe('以下是演示园区的当前概况。'));
    serverLanguage = 'zh-MO';
    await app.setLanguage('zh-MO');
    await waitFor(() => expect(intro()).toBe('以下是示範園區的目前概況。'));
    expect(get.mock.calls.filter(([path]) => path === apiPaths.userDetail)).toHaveLength(3);
  });
});

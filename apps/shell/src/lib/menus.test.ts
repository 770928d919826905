import { describe, expect, it } from 'vitest';
import type { MenuData, MenuPage, MenuSystem } from '@campus/contracts';
import { filterMenus, systemForPath } from './menus.ts';

const system = (appNo: string, sortNum: number, frontRoutingAddr = appNo): MenuSystem => ({ id: `sys-${appNo}`, appNo, appId: appNo, frontRoutingAddr, label: appNo.toUpperCase(), sortNum });
const page = (id: string, appNo: string, path: string, parentId: string | null, sortNum: number, funcRightPerms: string[] = []): MenuPage => ({
  id,
  path,
  name: id,
  title: id,
  sortNum,
  isFuncRight: funcRightPerms.length > 0,
  funcRightPerms,
  meta: { appNo, parentId, isSide: true },
});

const data: MenuData = {
  menuBaseList: [system('kq', 30), system('qy', 10), system('mj', 20), system('xf', 40)],
  menuList: [
    page('qy-home', 'qy', '/qy/homePage', null, 1),
    page('qy-logs', 'qy', '', null, 2),
    page('qy-operate-log', 'qy', '/qy/operate-log', 'qy-logs', 3, ['1001030']),
    page('kq-reports', 'kq', '', null, 5),
    page('kq-monthly', 'kq', '/kq/monthly-report', 'kq-reports', 6, ['1005002']),
    page('kq-daily', 'kq', '/kq/daily-report', 'kq-reports', 4),
    page('mj-events', 'mj', '/mj/mj-action-event', null, 7),
    page('mj-monitor', 'mj', '/monitor/mj/door-status', null, 8),
    page('xf-record', 'xf', '/xf/consume-record', null, 9),
  ],
};

describe('filterMenus (spec §6)', () => {
  it('shows the systems of the permission list, sorted by sortNum', () => {
    const result = filterMenus(data, [{ appCode: 'kq', ids: [] }, { appCode: 'qy', ids: [] }]);
    expect(result.systems.map((s) => s.appNo)).toEqual(['qy', 'kq']);
    expect(result.pages.every((p) => ['qy', 'kq'].includes(p.meta.appNo))).toBe(true);
  });

  it('shows a function-right page only with one of its codes; others always', () => {
    const without = filterMenus(data, [{ appCode: 'qy', ids: ['1001000'] }]).pages.map((p) => p.id);
    expect(without).toContain('qy-home');
    expect(without).not.toContain('qy-operate-log');
    const withCode = filterMenus(data, [{ appCode: 'qy', ids: ['1001030'] }]).pages.map((p) => p.id);
    expect(withCode).toContain('qy-operate-log');
  });

  it('checks the code in the page’s own system', () => {
    const pages = filterMenus(data, [{ appCode: 'qy', ids: ['1005002'] }, { appCode: 'kq', ids: ['1001030'] }]).pages.map((p) => p.id);
    expect(pages).not.toContain('qy-operate-log');
    expect(pages).not.toContain('kq-monthly');
  });

  it('hides a group whose pages are all hidden, keeps one with a page left', () => {
    const pages = filterMenus(data, [{ appCode: 'qy', ids: [] }, { appCode: 'kq', ids: [] }]).pages.map((p) => p.id);
    expect(pages).not.toContain('qy-logs');
    expect(pages).toContain('kq-reports');
    expect(pages.indexOf('kq-daily')).toBeLessThan(pages.indexOf('kq-reports')); // sorted by sortNum
  });

  it('adds the building monitor (mk) after door access when a door-access-monitoring menu exists', () => {
    const result = filterMenus(data, [{ appCode: 'mj', ids: [] }, { appCode: 'xf', ids: [] }], 'Building Monitor');
    expect(result.systems.map((s) => s.appNo)).toEqual(['mj', 'mk', 'xf']);
    const mk = result.systems.find((s) => s.appNo === 'mk')!;
    expect(mk).toMatchObject({ label: 'Building Monitor', frontRoutingAddr: 'monitor/mj' });
    expect(result.pages.find((p) => p.id === 'mj-monitor')!.meta.appNo).toBe('mk');
  });

  it('adds no monitor without a monitoring menu', () => {
    expect(filterMenus(data, [{ appCode: 'xf', ids: [] }]).systems.map((s) => s.appNo)).toEqual(['xf']);
  });
});

describe('systemForPath', () => {
  const systems = [system('qy', 10), system('xt', 11, 'qy'), system('mk', 20, 'monitor/mj'), system('tc', 30, '')];
  const pages = [page('xt-user', 'xt', '/qy/system/user', null, 1)];
  it('prefers the system of the menu page, then the sub-app root, then the first segment', () => {
    expect(systemForPath(systems, '/qy/system/user', pages)?.appNo).toBe('xt');
    expect(systemForPath(systems, '/qy/department', pages)?.appNo).toBe('qy');
    expect(systemForPath(systems, '/monitor/mj/door', pages)?.appNo).toBe('mk');
    expect(systemForPath(systems, '/tc', pages)?.appNo).toBe('tc');
  });
});

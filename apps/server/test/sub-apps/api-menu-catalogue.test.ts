import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@campus/contracts';
import type { MenuData } from '@campus/contracts';
import { createServices } from '../../src/services.ts';
import { call, databases, signIn, startServer } from '../support/helpers.ts';
import type { TestServer } from '../support/helpers.ts';

describe.each(databases)('menu catalogue shared by server processes (%s)', (kind) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(kind);
    token = await signIn(server, 'sysadmin', 'Sysadmin#2026');
  });
  afterAll(() => server.close());

  const pagePaths = async (language = 'en-US') => {
    const reply = await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language });
    expect(reply.body.code).toBe(0);
    return reply.body.data.menuList.map((p) => p.path);
  };

  it('report pages carry the backend page path for the frame; sub-application pages carry none', async () => {
    const reply = await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language: 'en-US' });
    const byId = new Map(reply.body.data.menuList.map((p) => [p.id, p]));
    expect(byId.get('xt-api-docs')?.meta.frameUrl).toBe('/docs');
    expect(byId.get('qy-home')?.meta).not.toHaveProperty('frameUrl');
  });

  it('a report page must frame a path on this server', async () => {
    const services = createServices(server.handle, server.config, { now: server.clock.now });
    const report = (frameUrl: string) =>
      services.menu.addPage({ id: `qy-frame-${frameUrl.length}`, appNo: 'qy', parentId: null, path: '/qy/frame', name: 'frame', title: { 'en-US': 'F', 'zh-CN': 'F', 'zh-MO': 'F' }, sortNum: 1, frameUrl });
    for (const bad of ['https://evil.example/', '//evil.example/', '/\\evil.example/', 'javascript:alert(1)', 'docs']) {
      await expect(report(bad)).rejects.toThrow(/frameUrl must be a path on this server/);
    }
  });

  it('a page added by another server process on the same database shows at the next call', async () => {
    expect(await pagePaths()).not.toContain('/qy/new-report');
    // another process: its own services over the same database
    const peer = createServices(server.handle, server.config, { now: server.clock.now });
    await peer.menu.addPage({
      id: 'qy-new-report',
      appNo: 'qy',
      parentId: null,
      path: '/qy/new-report',
      name: 'newReport',
      title: { 'en-US': 'New report', 'zh-CN': '新报表', 'zh-MO': '新報表' },
      sortNum: 9999,
    });
    expect(await pagePaths()).toContain('/qy/new-report');
    const zh = await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token, language: 'zh-MO' });
    expect(zh.body.data.menuList.find((p) => p.path === '/qy/new-report')?.title).toBe('新報表');
  });

  it('two users with the same grants get equal menus, and a grant change applies at once', async () => {
    const before = await pagePaths();
    const staffToken = await signIn(server, 'staff', 'Staff#2026');
    const staffMenu = await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token: staffToken, language: 'en-US' });
    expect(staffMenu.body.data.menuBaseList.map((s) => s.appNo)).toEqual(['qy', 'kq']);
    const staff = await server.handle.db.selectFrom('users').select('id').where('account', '=', 'staff').where('tenant_code', '=', '1001').executeTakeFirstOrThrow();
    await createServices(server.handle, server.config).menu.grant(staff.id, 'mj', ['1003000']);
    const after = await call<MenuData>(server, 'GET', apiPaths.menus, undefined, { token: staffToken, language: 'en-US' });
    expect(after.body.data.menuBaseList.map((s) => s.appNo)).toEqual(['qy', 'mj', 'kq']);
    expect(await pagePaths()).toEqual(before);
  });
});

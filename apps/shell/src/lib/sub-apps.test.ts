import { describe, expect, it } from 'vitest';
import type { MenuPage, SubAppEntry } from '@campus/contracts';
import { groupRegistry, mayNavigate, subAppForPath } from './sub-apps.ts';

const entry = (appNo: string, frontRoutingAddr: string, entryUrl?: string, installed = true): SubAppEntry => {
  const folder = frontRoutingAddr || appNo;
  return { appNo, frontRoutingAddr, folder, entry: entryUrl ?? `/subapps/${folder}/`, installed };
};

const registry: SubAppEntry[] = [
  entry('qy', 'qy'),
  entry('xt', 'qy'),
  entry('mj', 'mj', 'https://door.example.com/build/'),
  entry('tk', 'mj'),
  entry('mk', 'monitor/mj'),
  entry('kq', 'kq', undefined, false),
  entry('tc', ''),
];

const page = (id: string, appNo: string, path: string, frameUrl?: string): MenuPage => ({
  id,
  path,
  name: id,
  title: id,
  sortNum: 1,
  isFuncRight: false,
  funcRightPerms: [],
  meta: { appNo, parentId: null, isSide: true, ...(frameUrl ? { frameUrl } : {}) },
});

const pages: MenuPage[] = [
  page('qy-home', 'qy', '/qy/homePage'),
  page('qy-log', 'qy', '/qy/operate-log'),
  page('xt-user', 'xt', '/qy/system/user'),
  page('xt-docs', 'xt', '/qy/system/api-docs', '/docs'),
  page('mj-event', 'mj', '/mj/mj-action-event'),
  page('tc-lot', 'tc', '/parking-lot'),
];

describe('sub-app registry', () => {
  it('makes one application per entry folder, with the owner system’s entry and the route base', () => {
    const apps = groupRegistry(registry);
    expect(apps.map((app) => [app.name, app.basePath, app.appNos])).toEqual([
      ['qy', '/qy/', ['qy', 'xt']],
      ['mj', '/mj/', ['mj', 'tk']],
      ['monitor/mj', '/monitor/mj/', ['mk']],
      ['kq', '/kq/', ['kq']],
      ['tc', '', ['tc']],
    ]);
    expect(apps.find((app) => app.name === 'mj')?.entry).toBe('https://door.example.com/build/');
    expect(apps.filter((app) => !app.installed).map((app) => app.name)).toEqual(['kq']);
  });

  it('routes each page of the user to its application; xt pages to qy’s', () => {
    const apps = groupRegistry(registry);
    expect(subAppForPath(apps, '/qy/homePage', pages)?.name).toBe('qy');
    expect(subAppForPath(apps, '/qy/system/user', pages)?.name).toBe('qy');
    expect(subAppForPath(apps, '/mj/mj-action-event', pages)?.name).toBe('mj');
    expect(subAppForPath(apps, '/parking-lot', pages)?.name).toBe('tc');
    expect(subAppForPath(apps, '/parking-lot/detail', pages)?.name).toBe('tc');
  });

  it('lets the empty-base application (tc) claim only its own pages, never the shell’s routes', () => {
    const apps = groupRegistry(registry);
    for (const path of ['/home', '/login', '/tools', '/not-find', '/error', '/', '/parking-lots']) {
      expect(subAppForPath(apps, path, pages)).toBeUndefined();
    }
  });

  it('mounts nothing on report pages (their frame shows) and on pages the user may not open', () => {
    const apps = groupRegistry(registry);
    expect(subAppForPath(apps, '/qy/system/api-docs', pages)).toBeUndefined();
    expect(subAppForPath(apps, '/kq/attendance', pages)).toBeUndefined();
    expect(subAppForPath(apps, '/qy/not-a-menu-page', pages)).toBeUndefined();
  });

  it('always accepts door-access monitoring paths (spec §2)', () => {
    const apps = groupRegistry(registry);
    expect(subAppForPath(apps, '/monitor/mj/door-status', pages)?.name).toBe('monitor/mj');
  });
});

describe('navigate from a sub-app', () => {
  it('reaches only systems enabled for the user, and only their own pages', () => {
    const enabled = ['qy', 'xt', 'mj', 'tc'];
    expect(mayNavigate(enabled, pages, 'qy', '/qy/operate-log')).toBe(true);
    expect(mayNavigate(enabled, pages, 'qy', '/qy/operate-log?from=home')).toBe(true);
    expect(mayNavigate(enabled, pages, 'kq', '/kq/attendance')).toBe(false);
    expect(mayNavigate(enabled, pages, 'qy', '/mj/mj-action-event')).toBe(false);
    expect(mayNavigate(enabled, pages, 'qy', '/qy/unknown')).toBe(false);
  });

  it('refuses anything that is not a same-origin path', () => {
    const enabled = ['qy'];
    for (const path of ['https://evil.example/qy/homePage', '//evil.example/qy/homePage', '/\\evil.example', 'javascript:alert(1)', 'qy/homePage']) {
      expect(mayNavigate(enabled, pages, 'qy', path)).toBe(false);
    }
  });

  it('lets the building monitor open monitoring paths when the user has it', () => {
    expect(mayNavigate(['mk'], pages, 'mk', '/monitor/mj/door-status')).toBe(true);
    expect(mayNavigate(['qy'], pages, 'mk', '/monitor/mj/door-status')).toBe(false);
  });
});

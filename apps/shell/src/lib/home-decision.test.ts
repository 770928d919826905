import { describe, expect, it } from 'vitest';
import type { MenuPage, MenuSystem } from '@campus/contracts';
import { decideHome } from './home-decision.ts';

const system = (appNo: string, sortNum: number): MenuSystem => ({ id: appNo, appNo, appId: appNo, frontRoutingAddr: appNo, label: appNo.toUpperCase(), sortNum });
const page = (appNo: string, path: string, sortNum: number): MenuPage => ({
  id: path,
  path,
  name: path,
  title: path,
  sortNum,
  isFuncRight: false,
  funcRightPerms: [],
  meta: { appNo, parentId: null, isSide: true },
});

const systems = [system('qy', 1), system('mj', 2)];
const pages = [page('qy', '/qy/homePage', 1), page('qy', '/qy/operate-log', 2), page('mj', '/mj/mj-action-event', 3)];

describe('decideHome', () => {
  it('isOut=true opens the decoded target in a new window', () => {
    expect(decideHome({ toPath: '/report/view?id=1', isOut: 'true', systems, pages })).toEqual({ kind: 'open-window', url: '/report/view?id=1' });
    expect(decideHome({ toPath: '%2Freport%2Fview', isOut: 'true', systems, pages })).toEqual({ kind: 'open-window', url: '/report/view' });
  });

  it('isOut=true with an unsafe target opens nothing', () => {
    expect(decideHome({ toPath: '//evil.example', isOut: 'true', systems, pages })).toEqual({ kind: 'stay' });
  });

  it('a menu path sets the page and app and goes there', () => {
    expect(decideHome({ toPath: '/mj/mj-action-event', isOut: null, systems, pages })).toEqual({
      kind: 'navigate',
      to: '/mj/mj-action-event',
      appNo: 'mj',
      pagePath: '/mj/mj-action-event',
    });
  });

  it('a sub-app root goes to that system\'s first page', () => {
    expect(decideHome({ toPath: '/mj/', isOut: null, systems, pages })).toMatchObject({ kind: 'navigate', to: '/mj/mj-action-event', appNo: 'mj' });
  });

  it('an unknown page takes the app from the first segment', () => {
    expect(decideHome({ toPath: '/mj/unknown', isOut: null, systems, pages })).toMatchObject({ to: '/mj/mj-action-event', appNo: 'mj' });
  });

  it('falls back to /qy/homePage for an unknown system or an unsafe target', () => {
    expect(decideHome({ toPath: '/zz/x', isOut: null, systems, pages })).toMatchObject({ to: '/qy/homePage' });
    expect(decideHome({ toPath: 'https://evil.example', isOut: null, systems, pages })).toMatchObject({ to: '/qy/homePage' });
    expect(decideHome({ toPath: null, isOut: null, systems, pages })).toMatchObject({ to: '/qy/homePage' });
  });

  it('/home itself is never a target', () => {
    expect(decideHome({ toPath: '/home', isOut: null, systems, pages: [page('qy', '/home', 0), ...pages] })).toMatchObject({ to: '/qy/homePage' });
  });

  it('monitor paths are always accepted', () => {
    expect(decideHome({ toPath: '/monitor/mj/view', isOut: null, systems, pages })).toMatchObject({ kind: 'navigate', to: '/monitor/mj/view' });
  });

  it('stays when there is nothing to open', () => {
    expect(decideHome({ toPath: null, isOut: null, systems: [], pages: [] })).toEqual({ kind: 'stay' });
  });
});

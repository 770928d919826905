import { describe, expect, it } from 'vitest';
import { sidePage } from '../../../test/menu-fixtures.ts';
import { ancestorsOf, menuItemTarget, sideMenuTree } from './side-menu-tree.ts';

const p = sidePage;

const pages = [
  p('home', '/qy/homePage', null),
  p('org', '', null),
  p('dept', '/qy/department', 'org'),
  p('emps', '', 'org'),
  p('emp', '/qy/employee', 'emps'),
  p('deep', '', 'emps'),
  p('too-deep', '/qy/too-deep', 'deep'),
  p('empty-group', '', null),
  p('hidden', '/qy/hidden', null, 'qy', false),
  p('other', '/kq/shift', null, 'kq'),
];

describe('side menu tree', () => {
  const tree = sideMenuTree(pages, 'qy');

  it('holds the system’s side pages in up to three levels, with titles as i18n keys', () => {
    expect(tree.map((node) => node.id)).toEqual(['home', 'org']);
    const org = tree[1]!;
    expect(org.titleKey).toBe('menu:org');
    expect(org.children.map((node) => node.id)).toEqual(['dept', 'emps']);
    expect(org.children[1]!.children.map((node) => node.id)).toEqual(['emp']);
  });

  it('hides groups with nothing under them, pages not meant for the side, other systems and a fourth level', () => {
    const ids = JSON.stringify(tree);
    for (const id of ['empty-group', 'hidden', 'other', 'too-deep', '"deep"']) expect(ids).not.toContain(id);
  });

  it('finds the groups above a page', () => {
    expect(ancestorsOf(tree, 'emp')).toEqual(['org', 'emps']);
    expect(ancestorsOf(tree, 'home')).toEqual([]);
  });
});

describe('where a menu item goes', () => {
  it('routes ordinary pages', () => {
    expect(menuItemTarget('/qy/department', 1)).toEqual({ kind: 'route', to: '/qy/department' });
  });

  it.each(['/monitor/mj/door-monitor', '/mj-gk/overview', '/pfs-gk/panel'])('opens %s in a new window', (path) => {
    expect(menuItemTarget(path, 1)).toEqual({ kind: 'window', url: path });
  });

  it('opens audit pages in the separate audit app only for system types 13 and 21', () => {
    expect(menuItemTarget('/qy/audit/log', 13)).toEqual({ kind: 'window', url: '/audit-app/qy/audit/log' });
    expect(menuItemTarget('/qy/audit/log', 21)).toEqual({ kind: 'window', url: '/audit-app/qy/audit/log' });
    expect(menuItemTarget('/qy/audit/log', 1)).toEqual({ kind: 'route', to: '/qy/audit/log' });
    expect(menuItemTarget('/qy/audit/log', 22)).toEqual({ kind: 'route', to: '/qy/audit/log' });
  });
});

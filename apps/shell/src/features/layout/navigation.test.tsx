import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { MenuSystem } from '@campus/contracts';
import { sidePage } from '../../../test/menu-fixtures.ts';
import { i18n } from '../../lib/i18n.ts';
import { SideMenu } from './side-menu.tsx';
import { menuItemTarget, type MenuTarget } from './side-menu-tree.ts';
import { TopMenu } from './top-menu.tsx';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}
const where = () => screen.getByTestId('where').textContent;

const page = (id: string, path: string, parentId: string | null) => sidePage(id, path, parentId);
const pages = [
  page('home', '/qy/homePage', null),
  page('org', '', null),
  page('dept', '/qy/department', 'org'),
  page('emps', '', 'org'),
  page('emp', '/qy/employee', 'emps'),
  page('monitor', '/monitor/mj/door-status', null),
];
const titles = { home: 'Home', org: 'Organisation', dept: 'Departments', emps: 'Employees', emp: 'Employee List', monitor: 'Door Status' };

function inRouter(ui: React.ReactNode, at = '/qy/homePage') {
  return render(
    <MemoryRouter initialEntries={[at]}>
      {ui}
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('en-US');
  i18n.addResourceBundle('en-US', 'menu', titles, true, true);
});

describe('SideMenu', () => {
  const pageTarget = (path: string) => menuItemTarget(path, 1);

  it('opens the groups above the current page from the start and marks the page as current', () => {
    inRouter(<SideMenu pages={pages} appNo="qy" currentPageId="emp" targetOf={pageTarget} />, '/qy/employee');
    const nav = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(nav).getByRole('button', { name: 'Organisation' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('button', { name: 'Employees' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('link', { name: 'Employee List' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('shows a group’s pages when its button is pressed, hides them on the second press, and a page link opens the page', async () => {
    const chosen: string[] = [];
    inRouter(<SideMenu pages={pages} appNo="qy" currentPageId="home" targetOf={pageTarget} onChosen={() => chosen.push('chosen')} />);
    const group = screen.getByRole('button', { name: 'Organisation' });
    expect(group).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Departments' })).toBeNull();

    group.focus();
    await userEvent.keyboard('{Enter}');
    expect(group).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById(group.getAttribute('aria-controls')!)).toContainElement(screen.getByRole('link', { name: 'Departments' }));
    const link = screen.getByRole('link', { name: 'Departments' });
    // a real link: it can be opened in a new tab or have its address copied
    expect(link).toHaveAttribute('href', '/qy/department');
    await userEvent.click(link);
    expect(where()).toBe('/qy/department');
    expect(chosen).toEqual(['chosen']);

    await userEvent.click(group);
    expect(group).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: 'Departments' })).toBeNull();
  });

  it('a monitoring page is a link to a window of its own, without the opener', () => {
    inRouter(<SideMenu pages={pages} appNo="qy" currentPageId="home" targetOf={pageTarget} />);
    const link = screen.getByRole('link', { name: 'Door Status' });
    expect(link).toHaveAttribute('href', '/monitor/mj/door-status');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

describe('TopMenu', () => {
  const systems: MenuSystem[] = ['qy', 'kq', 'mj', 'xf', 'fk', 'tk', 'hy'].map((appNo, index) => ({
    appNo,
    label: `System ${index + 1}`,
    frontRoutingAddr: appNo,
  })) as MenuSystem[];
  const systemTarget = (system: MenuSystem): MenuTarget => ({ kind: 'route', to: `/${system.appNo}/first` });
  const show = (currentAppNo = 'qy') =>
    inRouter(<TopMenu systems={systems} currentAppNo={currentAppNo} theme="dark" width={1000} targetOf={systemTarget} />);

  it('shows as many systems as spec §2 counts (4 at 1000 px) as links, the current one marked, the rest under More', () => {
    show();
    const nav = screen.getByRole('navigation', { name: 'Systems' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['System 1', 'System 2', 'System 3', 'System 4']);
    expect(links[0]).toHaveAttribute('aria-current', 'true');
    expect(links[0]).toHaveAttribute('href', '/qy/first');
    expect(within(nav).getByRole('button', { name: 'More' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('More opens from the keyboard; arrows move through its systems, Escape closes it back on its button', async () => {
    show();
    const more = screen.getByRole('button', { name: 'More' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(within(list).getAllByRole('link').map((link) => link.textContent)).toEqual(['System 5', 'System 6', 'System 7']);
    await userEvent.keyboard('{ArrowDown}');
    expect(within(list).getByRole('link', { name: 'System 5' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(within(list).getByRole('link', { name: 'System 7' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveFocus();

    // ArrowDown on the closed button opens it on its first system; Enter follows it and closes the list
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: 'System 5' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(where()).toBe('/kq/first'.replace('kq', 'tk'));
    expect(more).toHaveAttribute('aria-expanded', 'false');
  });

  it('More closes when the focus leaves it or a press lands elsewhere', async () => {
    show();
    const more = screen.getByRole('button', { name: 'More' });
    await userEvent.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(document.body);
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(more);
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'System 5' })).toHaveFocus();
    await userEvent.tab({ shift: true });
    await userEvent.tab({ shift: true });
    expect(more).toHaveAttribute('aria-expanded', 'false');
  });

  it('More opened by a touch closes when the focus leaves it', async () => {
    show();
    const more = screen.getByRole('button', { name: 'More' });
    // a touch has no hover: the press itself opens it
    await userEvent.pointer({ keys: '[TouchA]', target: more });
    expect(more).toHaveAttribute('aria-expanded', 'true');
    more.focus();
    await userEvent.tab({ shift: true });
    expect(more).toHaveAttribute('aria-expanded', 'false');
  });

  it('More is marked when the current system is under it', () => {
    show('hy');
    expect(screen.getByRole('button', { name: 'More' })).toHaveClass('campus-top-menu__system--current');
  });
});

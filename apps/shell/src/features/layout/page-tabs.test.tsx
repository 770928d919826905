import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { i18n } from '../../lib/i18n.ts';
import { PageTabs } from './page-tabs.tsx';
import { emptyTabs, openTab, tabActions, useTabStore, type TabState } from './tab-store.ts';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function tabsOf(paths: string[], active: string): TabState {
  let state = emptyTabs;
  for (const path of paths) state = openTab(state, { path, titleKey: 'layout.monitorPage' });
  return openTab(state, { path: active, titleKey: 'layout.monitorPage' });
}

function show(state: TabState, at: string) {
  useTabStore.setState(state, true);
  return render(
    <MemoryRouter initialEntries={[at]}>
      <PageTabs tabs={state} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(async () => {
  tabActions.reset();
  await i18n.changeLanguage('en-US');
});

describe('PageTabs', () => {
  const paths = ['/qy/a', '/qy/b', '/qy/c'];

  it('is a tab list with the active tab selected and the only one with a close button', () => {
    show(tabsOf(paths, '/qy/b'), '/qy/b');
    const tabs = screen.getAllByRole('tab');
    expect(tabs).toHaveLength(3);
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    // the close button is outside the tab list (which holds only tabs) and names the tab it closes
    expect(screen.getAllByRole('button', { name: /^Close the tab / })).toHaveLength(1);
    expect(screen.getByRole('tablist').querySelectorAll('button:not([role="tab"])')).toHaveLength(0);
  });

  it('scrolls the active tab into view when it is not wholly in view, and only then', async () => {
    const scrolled: string[] = [];
    const original = HTMLElement.prototype.scrollIntoView;
    HTMLElement.prototype.scrollIntoView = function (this: HTMLElement) {
      scrolled.push(this.textContent ?? '');
    };
    // what the browser's observer would report of the active tab within the tab strip, once laid out
    let visibleShare = 1;
    // the observer that reveals the active tab (threshold 1); the one listing the tabs out of view watches every tab
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(
          private readonly report: (entries: { target: Element; intersectionRatio: number }[]) => void,
          private readonly options: { threshold: number | number[] },
        ) {}
        observe(target: Element) {
          if (this.options.threshold === 1) observed.push(target);
          queueMicrotask(() => this.report([{ target, intersectionRatio: visibleShare }]));
        }
        disconnect() {}
      },
    );
    try {
      const inView = show(tabsOf(paths, '/qy/b'), '/qy/b');
      await waitFor(() => expect(observed).toHaveLength(1));
      expect(observed[0]).toHaveAttribute('aria-selected', 'true');
      await act(async () => {});
      expect(scrolled).toEqual([]);
      inView.unmount();
      visibleShare = 0.4;
      show(tabsOf(paths, '/qy/c'), '/qy/c');
      await waitFor(() => expect(scrolled).toHaveLength(1));
      expect(observed[1]).toHaveAttribute('aria-selected', 'true');
    } finally {
      HTMLElement.prototype.scrollIntoView = original;
      vi.unstubAllGlobals();
    }
  });

  it('a click opens the tab’s page; arrows, Home and End move between tabs', async () => {
    show(tabsOf(paths, '/qy/b'), '/qy/b');
    await userEvent.click(screen.getAllByRole('tab')[2]!);
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/c');
    fireEvent.keyDown(screen.getAllByRole('tab')[1]!, { key: 'ArrowLeft' });
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/a');
    fireEvent.keyDown(screen.getAllByRole('tab')[1]!, { key: 'End' });
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/c');
  });

  it('Delete closes the active tab and goes to its neighbour', () => {
    show(tabsOf(paths, '/qy/b'), '/qy/b');
    fireEvent.keyDown(screen.getAllByRole('tab')[1]!, { key: 'Delete' });
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/c');
    expect(useTabStore.getState().tabs.map((tab) => tab.key)).toEqual(['/qy/a', '/qy/c']);
  });

  it('a right click opens the tab’s context menu; Close other tabs keeps that tab and opens it', async () => {
    show(tabsOf(paths, '/qy/c'), '/qy/c');
    fireEvent.contextMenu(screen.getAllByRole('tab')[0]!);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Close', 'Close other tabs', 'Close tabs to the right', 'Close all tabs']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Close other tabs' }));
    expect(useTabStore.getState().tabs.map((tab) => tab.key)).toEqual(['/qy/a']);
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/a');
  });

  it('Shift+F10 and the context-menu key open it on the focused tab; the last tab cannot close tabs to its right', async () => {
    show(tabsOf(paths, '/qy/c'), '/qy/c');
    fireEvent.keyDown(screen.getAllByRole('tab')[2]!, { key: 'F10', shiftKey: true });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Close tabs to the right' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Close all tabs' }));
    expect(useTabStore.getState().tabs).toEqual([]);
    expect(screen.getByTestId('where')).toHaveTextContent('/home');
  });

  it('the context-menu key on a tab left of the active one closes the tabs to its right', async () => {
    show(tabsOf(paths, '/qy/c'), '/qy/c');
    fireEvent.keyDown(screen.getAllByRole('tab')[0]!, { key: 'ContextMenu' });
    await userEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Close tabs to the right' }));
    expect(useTabStore.getState().tabs.map((tab) => tab.key)).toEqual(['/qy/a']);
    expect(screen.getByTestId('where')).toHaveTextContent('/qy/a');
  });

  it('lists the tabs out of view in a menu after the strip; choosing one opens it', async () => {
    // the browser's observer: /qy/a is scrolled out of the strip, the others are in view
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly report: (entries: { target: Element; intersectionRatio: number }[]) => void) {}
        observe(target: Element) {
          const out = target.querySelector('[data-tab-path]')?.getAttribute('data-tab-path') === '/qy/a';
          queueMicrotask(() => this.report([{ target, intersectionRatio: out ? 0.3 : 1 }]));
        }
        disconnect() {}
      },
    );
    try {
      show(tabsOf(paths, '/qy/c'), '/qy/c');
      const more = await screen.findByRole('button', { name: '1 more tab out of view' });
      await userEvent.click(more);
      const menu = await screen.findByRole('menu');
      expect(within(menu).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Monitoring']);
      await userEvent.click(within(menu).getByRole('menuitem'));
      expect(screen.getByTestId('where')).toHaveTextContent('/qy/a');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the out-of-view button’s place, hidden, while every tab is in view', () => {
    show(tabsOf(paths, '/qy/c'), '/qy/c');
    expect(screen.queryByRole('button', { name: /out of view/ })).toBeNull();
    expect(document.querySelector('.campus-page-tabs__more')).toHaveStyle({ visibility: 'hidden' });
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
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
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly report: (entries: { intersectionRatio: number }[]) => void) {}
        observe(target: Element) {
          observed.push(target);
          queueMicrotask(() => this.report([{ intersectionRatio: visibleShare }]));
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
});

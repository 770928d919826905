import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CloseOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { tabActions, useTabStore, type TabState } from './tab-store.ts';
import { TabContextMenu, TabsOutOfViewMenu, type TabMenuAction } from './tab-menus.tsx';
import { useTabsOutOfView } from './tabs-out-of-view.ts';

/**
 * The page tabs (spec §2): at most 10; only the active one can be closed. A plain tab list (WAI-ARIA tabs
 * pattern: arrow keys, Home and End move between tabs, Delete closes the active one): antd's Tabs measures
 * every tab on each render, which cost more than the rest of the layout's first paint. The close button sits
 * after the list, not in it (a tab list holds only tabs), and is named after the tab it closes. The active tab
 * is scrolled into view on every switch, and closing one puts the focus on the tab that takes its place.
 * The tabs that do not fit are listed in a menu after the strip (issue 48, item 13), and each tab has a context
 * menu (right click, Shift+F10 or the context-menu key): close, close others, close to the right, close all.
 */
export function PageTabs({ tabs: { tabs, activeKey } }: { tabs: TabState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useRef<HTMLDivElement>(null);
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const outOfView = useTabsOutOfView(
    list,
    tabs.map((tab) => tab.key),
  );
  useEffect(() => {
    const strip = list.current;
    const tab = strip?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]');
    if (!strip || !tab) return;
    const reveal = () => tab.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    if (typeof IntersectionObserver === 'undefined') return reveal();
    // scrolled only when it is not wholly in view, which the observer tells once the page is laid out: asking at
    // once would lay the page out in the middle of the layout's first render, a long task on a slow phone
    const observer = new IntersectionObserver(
      ([entry]) => {
        observer.disconnect();
        if (entry && entry.intersectionRatio < 1) reveal();
      },
      { root: strip, threshold: 1 },
    );
    observer.observe(tab);
    return () => observer.disconnect();
  }, [activeKey, tabs.length]);
  if (tabs.length === 0) return null;

  /** Focus follows the selection once the tab has re-rendered as active. */
  const focusTab = (key: string) =>
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-tab-path="${CSS.escape(key)}"]`)?.closest('button')?.focus());
  const go = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    void navigate(tab.path);
    focusTab(tab.key);
  };
  const close = (key: string) => {
    const next = tabActions.close(key);
    if (next) {
      void navigate(next);
      focusTab(useTabStore.getState().activeKey ?? next);
    }
  };
  const active = tabs.find((tab) => tab.key === activeKey);
  const focusActiveTab = () => focusTab(useTabStore.getState().activeKey ?? '');
  const chooseInMenu = (key: string, action: TabMenuAction) => {
    setMenuFor(null);
    const next = action === 'close' ? tabActions.close(key) : tabActions.closeBeside(key, action);
    if (next) void navigate(next);
    focusActiveTab();
  };
  const dismissMenu = (key: string) => {
    setMenuFor(null);
    focusTab(key);
  };
  const openOutOfView = (key: string) => {
    const tab = tabs.find((candidate) => candidate.key === key);
    if (!tab) return;
    void navigate(tab.path);
    focusTab(tab.key);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // keys pressed in a tab's context menu reach here through React's tree, not the strip's: they are the menu's
    if (!list.current?.contains(event.target as Node)) return;
    const focused = (event.target as HTMLElement).querySelector?.('[data-tab-path]')?.getAttribute('data-tab-path');
    if (focused && (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey))) {
      event.preventDefault();
      setMenuFor(focused);
      return;
    }
    const index = tabs.findIndex((tab) => tab.key === activeKey);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]!);
    } else if (event.key === 'Delete' && activeKey) {
      event.preventDefault();
      close(activeKey);
    }
  };

  return (
    <div className="campus-page-tabs">
      <div className="campus-page-tabs__list" role="tablist" aria-label={t('layout.pageTabs')} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => {
          const selected = tab.key === activeKey;
          const button = (
            <button
              key={tab.key}
              type="button"
              role="tab"
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className={`campus-page-tab${selected ? ' campus-page-tab--active' : ''}`}
              onClick={() => void navigate(tab.path)}
              onContextMenu={(event) => {
                event.preventDefault();
                setMenuFor(tab.key);
              }}
            >
              <span data-tab-path={tab.key}>{t(tab.titleKey)}</span>
            </button>
          );
          if (menuFor !== tab.key) return button;
          return (
            <TabContextMenu
              key={tab.key}
              canCloseOthers={tabs.length > 1}
              canCloseRight={index < tabs.length - 1}
              onChoose={(action) => chooseInMenu(tab.key, action)}
              onDismiss={() => dismissMenu(tab.key)}
            >
              {button}
            </TabContextMenu>
          );
        })}
      </div>
      {active ? (
        <button type="button" className="campus-page-tabs__close" aria-label={t('layout.closeTabNamed', { title: t(active.titleKey) })} title={t('layout.closeTabNamed', { title: t(active.titleKey) })} onClick={() => close(active.key)}>
          <CloseOutlined aria-hidden="true" />
        </button>
      ) : null}
      <TabsOutOfViewMenu tabs={tabs.filter((tab) => outOfView.includes(tab.key)).map((tab) => ({ key: tab.key, title: t(tab.titleKey) }))} onChoose={openOutOfView} />
    </div>
  );
}

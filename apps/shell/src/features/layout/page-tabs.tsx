import { useEffect, useRef, type KeyboardEvent } from 'react';
import { CloseOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '../../lib/use-translation.ts';
import { tabActions, useTabStore, type TabState } from './tab-store.ts';

/**
 * The page tabs (spec §2): at most 10; only the active one can be closed. A plain tab list (WAI-ARIA tabs
 * pattern: arrow keys, Home and End move between tabs, Delete closes the active one): antd's Tabs measures
 * every tab on each render, which cost more than the rest of the layout's first paint. The close button sits
 * after the list, not in it (a tab list holds only tabs), and is named after the tab it closes. The active tab
 * is scrolled into view on every switch, and closing one puts the focus on the tab that takes its place.
 */
export function PageTabs({ tabs: { tabs, activeKey } }: { tabs: TabState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useRef<HTMLDivElement>(null);
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
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
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
        {tabs.map((tab) => {
          const selected = tab.key === activeKey;
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className={`campus-page-tab${selected ? ' campus-page-tab--active' : ''}`}
              onClick={() => void navigate(tab.path)}
            >
              <span data-tab-path={tab.key}>{t(tab.titleKey)}</span>
            </button>
          );
        })}
      </div>
      {active ? (
        <button type="button" className="campus-page-tabs__close" aria-label={t('layout.closeTabNamed', { title: t(active.titleKey) })} title={t('layout.closeTabNamed', { title: t(active.titleKey) })} onClick={() => close(active.key)}>
          <CloseOutlined aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}

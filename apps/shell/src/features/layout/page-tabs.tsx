import { useRef, type KeyboardEvent } from 'react';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { tabActions, type TabState } from './tab-store.ts';

/**
 * The page tabs (spec §2): at most 10; only the active one has a close button. A plain tab list (WAI-ARIA
 * tabs pattern: arrow keys, Home and End move between tabs, Delete closes the active one): antd's Tabs
 * measures every tab on each render, which cost more than the rest of the layout's first paint.
 */
export function PageTabs({ tabs: { tabs, activeKey } }: { tabs: TabState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useRef<HTMLDivElement>(null);
  if (tabs.length === 0) return null;

  const go = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    void navigate(tab.path);
    // focus follows the selection once the tab has re-rendered as active
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-tab-path="${CSS.escape(tab.key)}"]`)?.closest('button')?.focus());
  };
  const close = (key: string) => {
    const next = tabActions.close(key);
    if (next) void navigate(next);
  };
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
    <div className="campus-page-tabs" role="tablist" aria-label={t('layout.pageTabs')} ref={list} onKeyDown={onKeyDown}>
      {tabs.map((tab) => {
        const active = tab.key === activeKey;
        return (
          <div key={tab.key} className={`campus-page-tab${active ? ' campus-page-tab--active' : ''}`}>
            <button
              type="button"
              role="tab"
              aria-selected={active}
              tabIndex={active ? 0 : -1}
              className="campus-page-tab__label"
              onClick={() => void navigate(tab.path)}
            >
              <span data-tab-path={tab.key}>{t(tab.titleKey)}</span>
            </button>
            {active ? (
              <button type="button" className="campus-page-tab__close" aria-label={t('layout.closeTab')} onClick={() => close(tab.key)}>
                <CloseOutlined aria-hidden="true" />
              </button>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

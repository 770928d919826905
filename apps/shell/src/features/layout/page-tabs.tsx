import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { tabActions, type TabState } from './tab-store.ts';

/** The page tabs (spec §2): at most 10; only the active one has a close icon. */
export function PageTabs({ tabs: { tabs, activeKey } }: { tabs: TabState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (tabs.length === 0) return null;

  const close = (key: string) => {
    const next = tabActions.close(key);
    if (next) void navigate(next);
  };

  return (
    <Tabs
      className="campus-page-tabs"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={activeKey ?? undefined}
      onChange={(key) => {
        const tab = tabs.find((candidate) => candidate.key === key);
        if (tab) void navigate(tab.path);
      }}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') close(key);
      }}
      locale={{ removeAriaLabel: t('layout.closeTab'), dropdownAriaLabel: t('layout.moreTabs') }}
      items={tabs.map((tab) => ({
        key: tab.key,
        label: <span data-tab-path={tab.key}>{t(tab.titleKey)}</span>,
        closable: tab.key === activeKey,
      }))}
    />
  );
}

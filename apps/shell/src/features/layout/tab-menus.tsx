import { cloneElement, isValidElement, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { Dropdown } from 'antd';
import { EllipsisOutlined } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { useOpenedOnce } from '../../lib/use-opened-once.ts';
import type { TabsToClose } from './tab-store.ts';

/** What a tab's context menu does: close that tab, or close others, to its right or all. */
export type TabMenuAction = 'close' | TabsToClose;

const actionLabels: Record<TabMenuAction, string> = {
  close: 'layout.tabMenu.close',
  others: 'layout.tabMenu.closeOthers',
  right: 'layout.tabMenu.closeRight',
  all: 'layout.tabMenu.closeAll',
};

function isTabMenuAction(key: string): key is TabMenuAction {
  return key in actionLabels;
}

/**
 * A tab's context menu, open around the tab it was opened on (right click, Shift+F10 or the context-menu key).
 * It takes the focus, so arrow keys move through it; Escape, a click elsewhere or a choice closes it.
 */
export function TabContextMenu({
  children,
  canCloseOthers,
  canCloseRight,
  onChoose,
  onDismiss,
}: {
  children: ReactElement;
  canCloseOthers: boolean;
  canCloseRight: boolean;
  onChoose: (action: TabMenuAction) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const disabled: Record<TabMenuAction, boolean> = { close: false, others: !canCloseOthers, right: !canCloseRight, all: false };
  const items = (Object.keys(actionLabels) as TabMenuAction[]).map((action) => ({ key: action, label: t(actionLabels[action]), disabled: disabled[action] }));
  const dismissOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onDismiss();
  };
  return (
    <Dropdown
      open
      trigger={['contextMenu']}
      placement="bottomLeft"
      autoFocus
      onOpenChange={(next) => {
        if (!next) onDismiss();
      }}
      menu={{
        items,
        'aria-label': t('layout.tabMenu.label'),
        onClick: ({ key }) => {
          if (isTabMenuAction(key)) onChoose(key);
        },
        onKeyDown: dismissOnEscape,
      }}
    >
      {children}
    </Dropdown>
  );
}

/**
 * The list of the tabs out of view, after the strip: choosing one opens it (and scrolls it into view). The button
 * keeps its place while no tab is out of view (hidden, not removed), so its coming does not shift the strip; its
 * dropdown is mounted when first opened, as the user menu's is.
 */
export function TabsOutOfViewMenu({ tabs, onChoose }: { tabs: { key: string; title: string }[]; onChoose: (key: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // each opening draws the menu anew, so it starts on its first entry
  const [opening, setOpening] = useState(0);
  const trigger = useRef<HTMLButtonElement>(null);
  const none = tabs.length === 0;
  const shown = open && !none;
  const openMenu = (next: boolean) => {
    if (next && !open) setOpening((count) => count + 1);
    setOpen(next);
  };
  const mounted = useOpenedOnce(shown);
  const label = t('layout.tabsOutOfView', { count: tabs.length });
  const button = (
    <button
      ref={trigger}
      type="button"
      className="campus-page-tabs__more"
      style={none ? { visibility: 'hidden' } : undefined}
      aria-label={label}
      title={label}
      aria-haspopup="menu"
      aria-expanded={shown}
      onClick={mounted ? undefined : () => openMenu(true)}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' && !open) {
          event.preventDefault();
          openMenu(true);
        }
      }}
    >
      <EllipsisOutlined aria-hidden="true" />
    </button>
  );
  if (!mounted) return button;
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      open={shown}
      onOpenChange={openMenu}
      autoFocus
      popupRender={(menu) => (isValidElement(menu) ? cloneElement(menu, { key: opening }) : menu)}
      menu={{
        items: tabs.map((tab) => ({ key: tab.key, label: tab.title })),
        onClick: ({ key }) => {
          setOpen(false);
          onChoose(key);
        },
        onKeyDown: (event) => {
          if (event.key !== 'Escape') return;
          event.stopPropagation();
          setOpen(false);
          trigger.current?.focus();
        },
      }}
    >
      {button}
    </Dropdown>
  );
}

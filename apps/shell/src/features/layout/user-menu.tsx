import { cloneElement, isValidElement, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from '../../lib/use-translation.ts';
import { returnFocusLater } from '../../lib/focus-return.ts';
import { useOpenedOnce } from '../../lib/use-opened-once.ts';
import { viewerTime } from '../../lib/time-format.ts';
import type { HeaderEntries } from './header-entries.ts';

export interface UserMenuActions {
  onChangePassword: () => void;
  onAbout: () => void;
  onDeviceService: () => void;
  onOpsPlatform: () => void;
  onBackupLogs: () => void;
  /** Opens a card management table (gate deployments). */
  onCardTable: (table: CardTable) => void;
  /** Opens the tenant's identity providers (issue 49). */
  onIdentityProviders: () => void;
  onQuit: () => void;
}

/** The card management tables of a gate deployment: administrator login cards and system key cards. */
export type CardTable = 'adminCards' | 'keyCards';

/**
 * The sign-in time on the viewer's clock, the zone named (lib/time-format.ts). Its own component, so the time is
 * formatted when the menu first opens: the browser's first date formatter costs tens of milliseconds to make, too
 * much for the layout's first render.
 */
function LoginSince({ loginTime }: { loginTime: number }) {
  const { t, i18n } = useTranslation();
  return <div className="campus-user-menu__since">{t('layout.loginTime', { time: viewerTime(loginTime, i18n.language, 'mediumDateMinute', { withZone: true }) })}</div>;
}

/** The user dropdown of the header (spec §2, §6): who is signed in and since when, then the account entries. */
export function UserMenu({
  name,
  loginTime,
  entries,
  cardTables = false,
  identityProviders = false,
  actions,
}: {
  name: string;
  loginTime: number | undefined;
  entries: Pick<HeaderEntries, 'deviceService' | 'opsPlatform' | 'backupLogs'>;
  /** The card management tables, for a system administrator of a gate deployment (the server says: mayManageCards). */
  cardTables?: boolean;
  /** The tenant's identity providers, for a system administrator of the tenant (the server keeps who may change them). */
  identityProviders?: boolean;
  actions: UserMenuActions;
}) {
  const { t } = useTranslation();
  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      className: 'campus-user-menu__who',
      label: (
        <div>
          <div className="campus-user-menu__name">{name}</div>
          {loginTime ? <LoginSince loginTime={loginTime} /> : null}
        </div>
      ),
    },
    { type: 'divider' },
    { key: 'changePassword', label: t('layout.changePassword') },
    { key: 'about', label: t('layout.about') },
    ...(entries.deviceService ? [{ key: 'deviceService', label: t('layout.deviceService') }] : []),
    ...(entries.opsPlatform ? [{ key: 'opsPlatform', label: t('layout.opsPlatform') }] : []),
    ...(entries.backupLogs ? [{ key: 'backupLogs', label: t('layout.backupLogs') }] : []),
    // named as the tables' own pages are titled
    ...(cardTables
      ? [
          { key: 'adminCards', label: t('cardSetup.screens.systemadminLogincard') },
          { key: 'keyCards', label: t('cardSetup.screens.systemKeycard') },
        ]
      : []),
    ...(identityProviders ? [{ key: 'identityProviders', label: t('layout.identityProviders') }] : []),
    { type: 'divider' },
    { key: 'quit', label: t('layout.quit'), danger: true },
  ];
  const handlers: Record<string, () => void> = {
    changePassword: actions.onChangePassword,
    about: actions.onAbout,
    deviceService: actions.onDeviceService,
    opsPlatform: actions.onOpsPlatform,
    backupLogs: actions.onBackupLogs,
    adminCards: () => actions.onCardTable('adminCards'),
    keyCards: () => actions.onCardTable('keyCards'),
    identityProviders: actions.onIdentityProviders,
    quit: actions.onQuit,
  };

  const [open, setOpen] = useState(false);
  // each opening draws the menu anew, so it starts on its first entry: a menu that came back on the entry last
  // highlighted (Quit) turned a second Enter into a sign-out
  const [opening, setOpening] = useState(0);
  const openMenu = (next: boolean) => {
    if (next && !open) setOpening((count) => count + 1);
    setOpen(next);
  };
  const trigger = useRef<HTMLButtonElement>(null);
  const choose = (key: string) => {
    setOpen(false);
    trigger.current?.focus();
    // a dialog the entry opens gives the focus back to the trigger when it closes
    returnFocusLater(trigger.current);
    handlers[key]?.();
  };

  // Escape in the menu closes it and gives the focus back to the trigger (the menu's item would take it to the body)
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setOpen(false);
    trigger.current?.focus();
  };

  // The dropdown is mounted when first opened: mounted with the layout, its trigger measuring the button asked React
  // for a second, synchronous render inside the layout's first commit, which also ran every effect of the layout in
  // that one long task (issue 27). The button stands alone until then and opens it itself.
  const menuMounted = useOpenedOnce(open);
  const button = (
    <Button
      ref={trigger}
      type="text"
      className="campus-user-menu"
      data-testid="user-menu"
      aria-label={t('layout.userMenu', { name })}
      aria-haspopup="menu"
      aria-expanded={open}
      // as antd's icon (not a child): a button without one mounts a loading-icon motion that also re-renders in the commit
      icon={<UserOutlined aria-hidden="true" />}
      onClick={menuMounted ? undefined : () => openMenu(true)}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' && !open) {
          event.preventDefault();
          openMenu(true);
        }
      }}
    >
      <span className="campus-user-menu__label" title={name}>{name}</span>
      <DownOutlined aria-hidden="true" />
    </Button>
  );
  if (!menuMounted) return button;
  return (
    // autoFocus: the open menu takes the focus (also when it is mounted open), so arrow keys move through it and
    // Escape returns to the trigger
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      open={open}
      onOpenChange={openMenu}
      autoFocus
      // a new key (not a wrapper): the dropdown focuses the menu through its ref
      popupRender={(menu) => (isValidElement(menu) ? cloneElement(menu, { key: opening }) : menu)}
      menu={{ items, onClick: ({ key }) => choose(key), onKeyDown: closeOnEscape }}>
      {button}
    </Dropdown>
  );
}

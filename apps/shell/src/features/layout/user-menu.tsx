import { Button, Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { DownOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { HeaderEntries } from './header-entries.ts';

export interface UserMenuActions {
  onChangePassword: () => void;
  onAbout: () => void;
  onDeviceService: () => void;
  onOpsPlatform: () => void;
  onBackupLogs: () => void;
  onQuit: () => void;
}

function formatLoginTime(loginTime: number | undefined, language: string): string {
  if (!loginTime) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(loginTime));
}

/** The user dropdown of the header (spec §2, §6): who is signed in and since when, then the account entries. */
export function UserMenu({
  name,
  loginTime,
  entries,
  actions,
}: {
  name: string;
  loginTime: number | undefined;
  entries: Pick<HeaderEntries, 'deviceService' | 'opsPlatform' | 'backupLogs'>;
  actions: UserMenuActions;
}) {
  const { t, i18n } = useTranslation();
  const since = formatLoginTime(loginTime, i18n.language);
  const items: MenuProps['items'] = [
    {
      key: 'who',
      disabled: true,
      className: 'campus-user-menu__who',
      label: (
        <div>
          <div className="campus-user-menu__name">{name}</div>
          {since ? <div className="campus-user-menu__since">{t('layout.loginTime', { time: since })}</div> : null}
        </div>
      ),
    },
    { type: 'divider' },
    { key: 'changePassword', label: t('layout.changePassword') },
    { key: 'about', label: t('layout.about') },
    ...(entries.deviceService ? [{ key: 'deviceService', label: t('layout.deviceService') }] : []),
    ...(entries.opsPlatform ? [{ key: 'opsPlatform', label: t('layout.opsPlatform') }] : []),
    ...(entries.backupLogs ? [{ key: 'backupLogs', label: t('layout.backupLogs') }] : []),
    { type: 'divider' },
    { key: 'quit', label: t('layout.quit'), danger: true },
  ];
  const handlers: Record<string, () => void> = {
    changePassword: actions.onChangePassword,
    about: actions.onAbout,
    deviceService: actions.onDeviceService,
    opsPlatform: actions.onOpsPlatform,
    backupLogs: actions.onBackupLogs,
    quit: actions.onQuit,
  };

  return (
    <Dropdown trigger={['click']} placement="bottomRight" menu={{ items, onClick: ({ key }) => handlers[key]?.() }}>
      <Button type="text" className="campus-user-menu" data-testid="user-menu" aria-label={t('layout.userMenu', { name })}>
        <UserOutlined aria-hidden="true" />
        <span className="campus-user-menu__label" title={name}>{name}</span>
        <DownOutlined aria-hidden="true" />
      </Button>
    </Dropdown>
  );
}

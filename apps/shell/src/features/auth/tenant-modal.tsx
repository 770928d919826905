import { useState } from 'react';
import { ConfigProvider, Modal, Radio, Space } from 'antd';
import type { TenantEntry } from '@campus/contracts';
import { toLanguage } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { beforeSignInTheme } from '../../lib/skins.ts';
import { antdLocales } from '../../lib/antd-locales.ts';

export interface TenantModalProps {
  tenants: TenantEntry[];
  onConfirm: (tenantCode: string) => void;
  onCancel: () => void;
}

/**
 * "Choose tenant" when an account belongs to several tenants (spec §2): radio options, the first
 * preselected, Cancel and Confirm. Arrow keys move between tenants, Enter confirms, Escape cancels.
 * Mount it only while choosing (its selection starts from the first tenant each time).
 */
export function TenantModal({ tenants, onConfirm, onCancel }: TenantModalProps) {
  const { t, i18n } = useTranslation();
  const [selected, setSelected] = useState<string>(tenants[0]?.code ?? '');

  return (
    // no ConfigProvider above the login page: keep button texts as written ("确定", not "确 定"), the default
    // skin's colours (antd's own blue gives white text 4.1:1) and antd's words in the user's language (Close)
    <ConfigProvider button={{ autoInsertSpace: false }} theme={beforeSignInTheme} locale={antdLocales[toLanguage(i18n.language)]}>
    <Modal
      open
      title={t('login.chooseTenant')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      onOk={() => onConfirm(selected)}
      onCancel={onCancel}
      okButtonProps={{ disabled: !selected }}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <div
        onKeyDown={(event) => {
          if (event.key === 'Enter' && selected) {
            event.preventDefault();
            onConfirm(selected);
          }
        }}
      >
      <Radio.Group aria-label={t('login.chooseTenant')} value={selected} onChange={(event) => setSelected(String(event.target.value))}>
        <Space orientation="vertical">
          {tenants.map((tenant, index) => (
            <Radio key={tenant.code} value={tenant.code} autoFocus={index === 0}>
              {tenant.name}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
      </div>
    </Modal>
    </ConfigProvider>
  );
}

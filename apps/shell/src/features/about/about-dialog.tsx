import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { shellVersion } from '@campus/contracts';
import * as storage from '../../lib/storage.ts';
import { closeAbout, useAccountDialogs } from '../../lib/account-dialogs.ts';

/** About System (spec §2 "Modals", width 1200): the product and the shell's version. */
export default function AboutDialog() {
  const { t } = useTranslation();
  const open = useAccountDialogs((state) => state.about);
  const settings = storage.tenantSettings.get();
  return (
    <Modal title={t('about.title')} open={open} width={1200} footer={null} onCancel={closeAbout} destroyOnHidden>
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          { key: 'product', label: t('about.product'), children: settings?.systemName || t('app.productName') },
          { key: 'node', label: t('about.programNode'), children: window.location.host },
          { key: 'program', label: t('about.programName'), children: 'main-front' },
          { key: 'version', label: t('about.version'), children: shellVersion },
        ]}
      />
    </Modal>
  );
}

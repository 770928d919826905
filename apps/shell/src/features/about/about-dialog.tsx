import { Suspense, type ReactNode } from 'react';
import { Descriptions, Modal, Spin, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { installedVersion } from '../../lib/installed-version.ts';
import { useTranslation } from '../../lib/use-translation.ts';
import * as storage from '../../lib/storage.ts';
import { closeAbout, setAboutTab, useAboutDialog, type AboutTab } from './about-state.ts';
import { VersionInfoTab } from './version-info-tab.tsx';
import { returnFocus } from '../../lib/focus-return.ts';
import { withTabKeptWithin } from '../../lib/keep-tab-within.tsx';

export interface AboutDialogProps {
  /** The Licenses tab's content, supplied by the app layer (it belongs to the licence feature). */
  licencesTab: ReactNode;
}

/**
 * About System (spec §2 "Modals", width 1200): the product and the shell's version, then two tabs,
 * Version Info and Licenses. It opens on Version Info, or on Licenses from a licence prompt.
 */
export default function AboutDialog({ licencesTab }: AboutDialogProps) {
  const { t } = useTranslation();
  const open = useAboutDialog((state) => state.open);
  const tab = useAboutDialog((state) => state.tab);
  const settings = storage.tenantSettings.get();
  // the build's version as its server says it (installedVersion never fails: it falls back to the release line)
  const version = useQuery({ queryKey: ['installed-version'], queryFn: installedVersion, staleTime: Infinity, enabled: open });
  return (
    <Modal title={t('about.title')} open={open} width={1200} footer={null} onCancel={closeAbout} destroyOnHidden focusable={{ focusTriggerAfterClose: false }} afterClose={returnFocus} modalRender={withTabKeptWithin}>
      <Descriptions
        column={2}
        size="small"
        items={[
          { key: 'product', label: t('about.product'), children: settings?.systemName || t('app.productName') },
          { key: 'version', label: t('about.version'), children: version.data ?? <Spin size="small" /> },
        ]}
      />
      <Tabs
        activeKey={tab}
        onChange={(key) => setAboutTab(key as AboutTab)}
        items={[
          { key: 'versions', label: t('about.versionTab'), children: <VersionInfoTab /> },
          {
            key: 'licences',
            label: t('about.licencesTab'),
            children: <Suspense fallback={<Spin />}>{licencesTab}</Suspense>,
          },
        ]}
      />
    </Modal>
  );
}

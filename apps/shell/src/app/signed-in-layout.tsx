import { lazy, Suspense } from 'react';
import MainLayout from '../features/layout/main-layout.tsx';
import AccountDialogs from '../features/account/account-dialogs.tsx';
import { useAccountDialogs } from '../lib/account-dialogs.ts';
import { useLicenceDialogs } from '../lib/licence-dialogs.ts';
import * as storage from '../lib/storage.ts';
import { useOpenedOnce } from '../lib/use-opened-once.ts';
import { useSubAppHost } from '../features/sub-apps/use-sub-app-host.ts';
import { SubAppViewport } from '../features/sub-apps/sub-app-viewport.tsx';

// opened from the user menu now and then: their code (the backup table above all) loads on first use
const AboutDialog = lazy(() => import('../features/about/about-dialog.tsx'));
const BackupLogDialog = lazy(() => import('../features/backup-log/backup-log-dialog.tsx'));
// the licence feature: About's Licenses tab, the upload, activation and trial dialogs, and the prompt after a
// sign-in with an abnormal licence; none of it is part of the layout's first paint
const LicencesTab = lazy(() => import('../features/licence/licences-tab.tsx'));
const LicenceDialogs = lazy(() => import('../features/licence/licence-dialogs.tsx'));
const LicencePrompt = lazy(() => import('../features/licence/licence-prompt.tsx'));

/** The main layout with the sub-app host and the dialogs its user menu opens (features meet here, not in each other). */
export default function SignedInLayout() {
  const host = useSubAppHost();
  const about = useOpenedOnce(useAccountDialogs((state) => state.about));
  const backupLogs = useOpenedOnce(useAccountDialogs((state) => state.backupLogs));
  const licenceDialogs = useOpenedOnce(useLicenceDialogs((state) => state.upload || state.trial || state.activation !== null));
  const licenceAbnormal = storage.licenceAbnormal.get();
  return (
    <MainLayout
      viewport={<SubAppViewport onRetryRegistry={host.retryRegistry} />}
      dialogs={
        <>
          {/* always mounted: it checks for a forced password change after sign-in */}
          <AccountDialogs />
          <Suspense fallback={null}>
            {about ? <AboutDialog licencesTab={<LicencesTab />} /> : null}
            {backupLogs ? <BackupLogDialog /> : null}
            {licenceDialogs ? <LicenceDialogs /> : null}
            {licenceAbnormal ? <LicencePrompt /> : null}
          </Suspense>
        </>
      }
    />
  );
}

import { lazy, Suspense } from 'react';
import MainLayout from '../features/layout/main-layout.tsx';
import AccountDialogs from '../features/account/account-dialogs.tsx';
import { useAccountDialogs } from '../lib/account-dialogs.ts';
import { useOpenedOnce } from '../lib/use-opened-once.ts';

// opened from the user menu now and then: their code (the backup table above all) loads on first use
const AboutDialog = lazy(() => import('../features/about/about-dialog.tsx'));
const BackupLogDialog = lazy(() => import('../features/backup-log/backup-log-dialog.tsx'));

/** The main layout with the dialogs its user menu opens (features meet here, not in each other). */
export default function SignedInLayout() {
  const about = useOpenedOnce(useAccountDialogs((state) => state.about));
  const backupLogs = useOpenedOnce(useAccountDialogs((state) => state.backupLogs));
  return (
    <MainLayout
      dialogs={
        <>
          {/* always mounted: it checks for a forced password change after sign-in */}
          <AccountDialogs />
          <Suspense fallback={null}>
            {about ? <AboutDialog /> : null}
            {backupLogs ? <BackupLogDialog /> : null}
          </Suspense>
        </>
      }
    />
  );
}

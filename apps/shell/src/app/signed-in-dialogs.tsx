import { lazy, Suspense } from 'react';
import AccountDialogs from '../features/account/account-dialogs.tsx';
import { openAbout, useAboutDialog } from '../features/about/about-state.ts';
import { useBackupLogDialog } from '../features/backup-log/backup-log-state.ts';
import { anyLicenceDialogOpen, useLicenceDialogs } from '../features/licence/licence-dialog-state.ts';
import * as storage from '../lib/storage.ts';
import { useOpenedOnce } from '../lib/use-opened-once.ts';

// opened from the user menu now and then: their code (the backup table above all) loads on first use
const AboutDialog = lazy(() => import('../features/about/about-dialog.tsx'));
const BackupLogDialog = lazy(() => import('../features/backup-log/backup-log-dialog.tsx'));
// the licence feature: About's Licenses tab, the upload, activation and trial dialogs, and the prompt after a
// sign-in with an abnormal licence; none of it is part of the layout's first paint
const LicencesTab = lazy(() => import('../features/licence/licences-tab.tsx'));
const LicenceDialogs = lazy(() => import('../features/licence/licence-dialogs.tsx'));
const LicencePrompt = lazy(() => import('../features/licence/licence-prompt.tsx'));

const viewLicenceDetails = () => openAbout('licences');

/**
 * The dialogs of the signed-in layout. Each feature keeps its own dialog's state; where one feature's dialog
 * leads to another's (the licence prompt's 'View details' opens About System on its Licenses tab, whose
 * content is the licence feature's), they are wired here: features never import each other.
 */
export default function SignedInDialogs() {
  const aboutOpen = useAboutDialog((state) => state.open);
  const about = useOpenedOnce(aboutOpen);
  const backupLogs = useOpenedOnce(useBackupLogDialog((state) => state.open));
  const licenceDialogs = useOpenedOnce(useLicenceDialogs(anyLicenceDialogOpen));
  const licenceAbnormal = storage.licenceAbnormal.get();
  return (
    <>
      {/* always mounted: it checks for a forced password change after sign-in */}
      <AccountDialogs />
      <Suspense fallback={null}>
        {about ? <AboutDialog licencesTab={<LicencesTab />} /> : null}
        {backupLogs ? <BackupLogDialog /> : null}
        {licenceDialogs ? <LicenceDialogs /> : null}
        {licenceAbnormal ? <LicencePrompt onViewDetails={viewLicenceDetails} detailsOpen={aboutOpen} /> : null}
      </Suspense>
    </>
  );
}

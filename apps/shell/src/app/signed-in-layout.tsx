import MainLayout from '../features/layout/main-layout.tsx';
import AccountDialogs from '../features/account/account-dialogs.tsx';
import AboutDialog from '../features/about/about-dialog.tsx';
import BackupLogDialog from '../features/backup-log/backup-log-dialog.tsx';

/** The main layout with the dialogs its user menu opens (features meet here, not in each other). */
export default function SignedInLayout() {
  return (
    <MainLayout
      dialogs={
        <>
          <AccountDialogs />
          <AboutDialog />
          <BackupLogDialog />
        </>
      }
    />
  );
}

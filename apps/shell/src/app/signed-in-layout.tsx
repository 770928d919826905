import { useMemo } from 'react';
import MainLayout, { type DialogOpeners } from '../features/layout/main-layout.tsx';
import { openChangePassword } from '../features/account/change-password-state.ts';
import { openAbout } from '../features/about/about-state.ts';
import { openBackupLogs } from '../features/backup-log/backup-log-state.ts';
import { useSubAppHost } from '../features/sub-apps/use-sub-app-host.ts';
import { SubAppViewport } from '../features/sub-apps/sub-app-viewport.tsx';
import { DevOverrideBadge } from '../features/sub-apps/dev-override-badge.tsx';
import SignedInDialogs from './signed-in-dialogs.tsx';

const changePassword = () => openChangePassword();

/** What the user menu's entries open: dialogs of the account, about and backup-log features. */
const openers: DialogOpeners = {
  onChangePassword: changePassword,
  onAbout: () => openAbout(),
  onBackupLogs: openBackupLogs,
};

/**
 * The main layout with the sub-app host and the dialogs its user menu and a sub-app's changePwd open
 * (features meet here, not in each other).
 */
export default function SignedInLayout() {
  const { retryRegistry } = useSubAppHost({ onChangePassword: changePassword });
  // the same element while nothing it shows changes: the host's answers (the user, the registry) come after the
  // layout's first render and must not render the whole layout again (a long task on a phone, issue 27)
  return useMemo(
    () => <MainLayout viewport={<SubAppViewport onRetryRegistry={retryRegistry} />} dialogs={<SignedInDialogs />} openers={openers} headerNotice={<DevOverrideBadge />} />,
    [retryRegistry],
  );
}

import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout } from './session.ts';
import { closeAbout } from './account-dialogs.ts';
import { resetLicenceDialogs } from './licence-dialogs.ts';

/**
 * Sign out and open /login (spec §4 "Logout"): Quit, and after activation, trial registration or 'Return to
 * login'. Server state and open dialogs go with the session.
 */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    await logout();
    queryClient.clear();
    resetLicenceDialogs();
    closeAbout();
    await navigate('/login', { replace: true });
  };
}

import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout } from './session.ts';
import { leavePage } from './leave-page.ts';

/**
 * Sign out and open /login (spec §4 "Logout"): Quit, and after activation, trial registration or 'Return to
 * login'. Server state goes with the session; logout() closes the open dialogs (each feature's dialog store
 * registers its reset with onSignOut). A session that came from an identity provider offering its own logout
 * goes there instead, once storage is cleared (issue 49): the provider ends its session and may send the browser back.
 */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    const providerLogout = await logout();
    queryClient.clear();
    if (providerLogout) leavePage(providerLogout);
    else await navigate('/login', { replace: true });
  };
}

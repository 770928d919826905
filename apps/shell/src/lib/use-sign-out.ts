import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { logout } from './session.ts';

/**
 * Sign out and open /login (spec §4 "Logout"): Quit, and after activation, trial registration or 'Return to
 * login'. Server state goes with the session; logout() closes the open dialogs (each feature's dialog store
 * registers its reset with onSignOut).
 */
export function useSignOut(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async () => {
    await logout();
    queryClient.clear();
    await navigate('/login', { replace: true });
  };
}

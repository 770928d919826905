import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { CardStateAction } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { apiGet, RequestError } from '../../lib/request.ts';
import { setSignOutNotice } from '../../lib/sign-out-notice.ts';
import * as storage from '../../lib/storage.ts';

/** Whether the signed-in session is gone: the server refuses it (401). Any other failure says nothing about it. */
async function sessionRefused(): Promise<boolean> {
  try {
    await apiGet(apiPaths.userDetail);
    return false;
  } catch (error) {
    return error instanceof RequestError && error.status === 401;
  }
}

/**
 * After an action that ends its holders' sessions (loss, freeze, damage of administrator cards), done with the
 * operator's own session: if one of the cards was his own, his session ended with it. He is then told why and
 * sent to /login (spec §8: 401 → /login), not left on a table that sends him to the mother-card swipe.
 * Answers whether it went.
 */
export function useOwnSessionEnd(): (action: CardStateAction) => Promise<boolean> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (action: CardStateAction) => {
      if (!storage.isSignedIn() || storage.masterCardToken.get()) return false;
      if (!(await sessionRefused())) return false;
      storage.clearSession({ keepMasterCardToken: true });
      queryClient.clear();
      setSignOutNotice(`cardManagement.ownCardSessionEnded.${action}`);
      await navigate('/login', { replace: true });
      return true;
    },
    [navigate, queryClient],
  );
}

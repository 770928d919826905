import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { isTokenRefused } from './card-manager-calls.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardTableKind } from './card-table-kinds.ts';

/**
 * Neither token is good (401, code 221): the operator goes to swipe the mother card, which comes back to this
 * table (the request layer has forgotten the refused token). Answers whether it went.
 */
export function useTokenRefusal(kind: CardTableKind): (error: unknown) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      if (!isTokenRefused(error)) return false;
      void navigate(cardTableKinds[kind].masterCardPath, { replace: true });
      return true;
    },
    [kind, navigate],
  );
}

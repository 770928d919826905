import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CardOption, CardSearchRequest, CardStateAction, SystemAdminOption } from '@campus/contracts';
import { apiPaths } from '@campus/contracts';
import { useTranslation } from '../../lib/use-translation.ts';
import { gateStateQueryKey } from '../../lib/gate-screen-frame.tsx';
import { cardManagerCall } from './card-manager-calls.ts';
import { cardTableKinds } from './card-table-kinds.ts';
import type { CardRow, CardTableKind } from './card-table-kinds.ts';

/** Everything a card table loads; invalidated after every action. */
export const cardTableQueryKey = (kind: CardTableKind) => ['card-table', kind] as const;

/** An administrator as the lists name him: name and login name. */
export const holderLabel = (admin: SystemAdminOption) => (admin.name && admin.name !== admin.no ? `${admin.name} (${admin.no})` : admin.no);

async function list<T>(url: string): Promise<T[]> {
  const { data } = await cardManagerCall<T[] | null>(url);
  return Array.isArray(data) ? data : [];
}

/** The filters' choices: states and kinds (labelled by the server in the current language), and operators. */
export function useCardFilterOptions(kind: CardTableKind) {
  const { i18n } = useTranslation();
  const { paths } = cardTableKinds[kind];
  const states = useQuery({ queryKey: [...cardTableQueryKey(kind), 'states', i18n.language], queryFn: () => list<CardOption>(paths.stateList), retry: false });
  const kinds = useQuery({ queryKey: [...cardTableQueryKey(kind), 'kinds', i18n.language], queryFn: () => list<CardOption>(paths.kindList), retry: false });
  const operators = useQuery({
    queryKey: [...cardTableQueryKey(kind), 'operators'],
    queryFn: () => list<SystemAdminOption>(apiPaths.adminCardGetSystemAdmin),
    enabled: kind === 'adminCards',
    retry: false,
  });
  return { states, kinds, operators };
}

export interface CardPageData {
  rows: CardRow[];
  total: number;
}

/** One page of a card table. */
export function useCardPage(kind: CardTableKind, body: CardSearchRequest) {
  return useQuery({
    queryKey: [...cardTableQueryKey(kind), 'page', body],
    queryFn: async (): Promise<CardPageData> => {
      const reply = await cardManagerCall<CardRow[] | null>(cardTableKinds[kind].paths.search, body);
      const rows = Array.isArray(reply.data) ? reply.data : [];
      return { rows, total: reply.recordCount ?? rows.length };
    },
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });
}

/** The card found on the reader (Seek), kept fresh like the table; null when the card is no longer found. */
export function useSeekedCard(kind: CardTableKind, fixedNo: string | null) {
  return useQuery({
    queryKey: [...cardTableQueryKey(kind), 'seek', fixedNo],
    queryFn: async () => (await cardManagerCall<CardRow | null>(cardTableKinds[kind].paths.seek, { fixedNo })).data ?? null,
    enabled: fixedNo !== null,
    retry: false,
    staleTime: 0,
  });
}

/** Loss, unloss, freeze, unfreeze or damage of the selected cards: all of them or none (238 names the card that stopped it). */
export async function applyStateAction(kind: CardTableKind, action: CardStateAction, ids: string[]): Promise<void> {
  const config = cardTableKinds[kind];
  await cardManagerCall(config.paths.stateActions[action], config.stateActionBody(ids));
}

/** Reloads the table (and the set-up state, which a new key card or a recovery changes). */
export function useRefreshCardTable(kind: CardTableKind) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: cardTableQueryKey(kind) }), queryClient.invalidateQueries({ queryKey: gateStateQueryKey })]);
  };
}

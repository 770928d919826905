import type { CardSearchRequest } from '@campus/contracts';
import { cardTablePaging } from '@campus/contracts';

/** The filters of a card table (spec §2): operator (administrator cards), free text, card kinds and states. */
export interface CardFilter {
  oprtId: string | null;
  text: string;
  cardKinds: number[];
  states: number[];
}

export const noCardFilter: CardFilter = { oprtId: null, text: '', cardKinds: [], states: [] };

export type CardSortField = NonNullable<CardSearchRequest['orderBys']>[number]['field'];

export interface CardSort {
  field: CardSortField;
  isAsc: boolean;
}

/** The server's default order: newest first. */
export const defaultCardSort: CardSort = { field: 'createTime', isAsc: false };

export interface CardPage {
  index: number;
  size: number;
}

export const firstCardPage: CardPage = { index: 1, size: cardTablePaging.pageSize };

/** The Search body of a card table: only the filters that are set; cardKinds and states as JSON arrays. */
export function cardSearchBody(filter: CardFilter, page: CardPage, sort: CardSort): CardSearchRequest {
  const filters: NonNullable<CardSearchRequest['filters']> = [];
  if (filter.oprtId) filters.push({ field: 'OprtId', value: filter.oprtId });
  const text = filter.text.trim();
  if (text) filters.push({ field: 'likeSearch', value: text });
  if (filter.cardKinds.length > 0) filters.push({ field: 'cardKinds', value: JSON.stringify(filter.cardKinds) });
  if (filter.states.length > 0) filters.push({ field: 'states', value: JSON.stringify(filter.states) });
  return { page: { index: page.index, size: page.size }, filters, orderBys: [{ field: sort.field, isAsc: sort.isAsc }] };
}

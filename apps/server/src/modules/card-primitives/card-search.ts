import { sql } from 'kysely';
import type { RawBuilder, SqlBool } from 'kysely';
import type { CardSearchRequest } from '@campus/contracts';
import { InvalidRequest } from '../../http/envelope.ts';
import { containsPattern } from '../../db/contains-pattern.ts';

/** A card search as the repositories take it. */
export interface CardSearch {
  oprtId?: string;
  like?: string;
  kinds?: number[];
  states?: number[];
  order: { column: 'created_at' | 'state' | 'fixed_no' | 'card_num'; asc: boolean }[];
  offset: number;
  limit: number;
}

const orderColumns = { createTime: 'created_at', state: 'state', fixedNo: 'fixed_no', num: 'card_num' } as const;

function numberList(value: string, field: string): number[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length > 20 || !parsed.every((n) => Number.isInteger(n))) {
    throw new InvalidRequest(`body/filters ${field} must be a JSON array of whole numbers, such as [20,40]`);
  }
  return parsed as number[];
}

/** The request's filters and order as one search (the schema checked the shapes; this checks the values). */
export function toCardSearch(request: CardSearchRequest): CardSearch {
  const search: CardSearch = { order: [], offset: (request.page.index - 1) * request.page.size, limit: request.page.size };
  for (const filter of request.filters ?? []) {
    const value = filter.value.trim();
    if (value === '') continue;
    if (filter.field === 'OprtId') search.oprtId = value;
    else if (filter.field === 'likeSearch') search.like = value;
    else if (filter.field === 'cardKinds') search.kinds = numberList(value, 'cardKinds');
    else search.states = numberList(value, 'states');
  }
  for (const order of request.orderBys ?? []) search.order.push({ column: orderColumns[order.field], asc: order.isAsc === true });
  if (search.order.length === 0) search.order.push({ column: 'created_at', asc: false });
  return search;
}

/** `column` (any type) contains `text` literally, case-insensitive, on SQLite and PostgreSQL. */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(cast(${sql.ref(column)} as text)) like lower(${containsPattern(text)}) escape '\\'`;
}

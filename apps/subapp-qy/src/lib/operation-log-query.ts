import type { OperationAction, OperationLogSearchRequest } from '@campus/contracts';
import { operationActions, operationLogOperatorMaxLength } from '@campus/contracts';
import { parseDateTimeLocal } from './clock.ts';

/** What the filter form holds (datetime-local strings on the user's clock). */
export interface LogForm {
  from: string;
  to: string;
  operator: string;
  action: OperationAction | '';
}

export const emptyLogForm: LogForm = { from: '', to: '', operator: '', action: '' };

/** The longest operator filter the server accepts. */
export const operatorMaxLength = operationLogOperatorMaxLength;

export type LogFilters = Omit<OperationLogSearchRequest, 'page'>;

export interface LogQuery {
  filters: LogFilters;
  /** 1-based. */
  index: number;
  size: number;
}

export type FormCheck = { ok: true; filters: LogFilters } | { ok: false; error: 'rangeInvalid' };

/**
 * Filters from the form: times on the user's clock (the end covers its whole minute), the operator trimmed, empty
 * fields left out. An end before the start is refused.
 */
export function filtersFromForm(form: LogForm, utcDiff: number): FormCheck {
  const from = parseDateTimeLocal(form.from, utcDiff);
  const to = parseDateTimeLocal(form.to, utcDiff);
  if (from && to && to.at < from.at) return { ok: false, error: 'rangeInvalid' };
  const filters: LogFilters = {};
  // the server takes epoch ms from 0: a bound before 1970 means "from the beginning"
  if (from) filters.startTime = Math.max(0, from.at);
  if (to) filters.endTime = Math.max(0, to.through);
  const operator = form.operator.trim().slice(0, operatorMaxLength);
  if (operator) filters.operator = operator;
  if (form.action && (operationActions as readonly string[]).includes(form.action)) filters.action = form.action;
  return { ok: true, filters };
}

/** The body of POST operationLogSearch for a query. */
export function searchRequest(query: LogQuery): OperationLogSearchRequest {
  return { page: { index: query.index, size: query.size }, ...query.filters };
}

import { describe, expect, it } from 'vitest';
import { emptyLogForm, filtersFromForm, searchRequest } from './operation-log-query.ts';

describe('operation log query', () => {
  it('an empty form filters nothing', () => {
    expect(filtersFromForm(emptyLogForm, 480)).toEqual({ ok: true, filters: {} });
    expect(searchRequest({ filters: {}, index: 1, size: 20 })).toEqual({ page: { index: 1, size: 20 } });
  });

  it('turns the form into filters on the user clock, trimming the operator', () => {
    const checked = filtersFromForm({ from: '2026-11-20T08:00', to: '2026-11-20T09:30', operator: '  Sys ', action: 'lock' }, 480);
    expect(checked).toEqual({
      ok: true,
      filters: { startTime: Date.UTC(2026, 10, 20, 0, 0), endTime: Date.UTC(2026, 10, 20, 1, 30) + 59_999, operator: 'Sys', action: 'lock' },
    });
  });

  it('accepts one end of the range alone, and an equal start and end', () => {
    expect(filtersFromForm({ ...emptyLogForm, to: '2026-11-20T09:30' }, 0)).toEqual({ ok: true, filters: { endTime: Date.UTC(2026, 10, 20, 9, 30) + 59_999 } });
    expect(filtersFromForm({ ...emptyLogForm, from: '2026-11-20T09:30', to: '2026-11-20T09:30' }, 0).ok).toBe(true);
  });

  it('refuses an end before the start', () => {
    expect(filtersFromForm({ ...emptyLogForm, from: '2026-11-20T09:30', to: '2026-11-20T09:29' }, 0)).toEqual({ ok: false, error: 'rangeInvalid' });
  });

  it('drops a blank operator and cuts a long one to 64 characters', () => {
    expect(filtersFromForm({ ...emptyLogForm, operator: '   ' }, 0)).toEqual({ ok: true, filters: {} });
    const long = filtersFromForm({ ...emptyLogForm, operator: 'a'.repeat(80) }, 0);
    expect(long.ok && long.filters.operator).toHaveLength(64);
  });

  it('keeps times at or after 1970 (the server takes epoch ms from 0)', () => {
    expect(filtersFromForm({ ...emptyLogForm, from: '1960-01-01T00:00', to: '1969-12-31T23:00' }, 0)).toEqual({ ok: true, filters: { startTime: 0, endTime: 0 } });
  });

  it('puts the page first and the filters after it', () => {
    expect(searchRequest({ filters: { operator: 'x' }, index: 3, size: 50 })).toEqual({ page: { index: 3, size: 50 }, operator: 'x' });
  });
});

import { describe, expect, it } from 'vitest';
import { cardSearchBody, defaultCardSort, firstCardPage, noCardFilter } from './card-search.ts';

describe('the Search body of a card table (spec §7 SystemKeyCard/Search)', () => {
  it('no filter: the first page of 15, newest first, no filters', () => {
    expect(cardSearchBody(noCardFilter, firstCardPage, defaultCardSort)).toEqual({
      page: { index: 1, size: 15 },
      filters: [],
      orderBys: [{ field: 'createTime', isAsc: false }],
    });
  });

  it('every filter that is set; card kinds and states as JSON arrays; the free text trimmed', () => {
    const body = cardSearchBody({ oprtId: 'u2', text: '  de0001 ', cardKinds: [11], states: [20, 40] }, { index: 3, size: 30 }, { field: 'fixedNo', isAsc: true });
    expect(body).toEqual({
      page: { index: 3, size: 30 },
      filters: [
        { field: 'OprtId', value: 'u2' },
        { field: 'likeSearch', value: 'de0001' },
        { field: 'cardKinds', value: '[11]' },
        { field: 'states', value: '[20,40]' },
      ],
      orderBys: [{ field: 'fixedNo', isAsc: true }],
    });
  });

  it('blank text and empty lists send no filter', () => {
    expect(cardSearchBody({ oprtId: null, text: '   ', cardKinds: [], states: [] }, firstCardPage, defaultCardSort).filters).toEqual([]);
  });
});

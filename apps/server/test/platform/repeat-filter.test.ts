import { describe, expect, it } from 'vitest';
import { createRepeatFilter } from '../../src/lib/repeat-filter.ts';
import { fakeClock } from '../support/helpers.ts';

describe('the repeated-error filter', () => {
  it('logs the first of a key, counts the repeats in the window, and reports their number with the next logged one', () => {
    const clock = fakeClock(0);
    const filter = createRepeatFilter(60_000, clock.now);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 0 });
    for (let i = 0; i < 1673; i += 1) expect(filter.admit('db down').log).toBe(false);
    // another key is its own
    expect(filter.admit('other')).toEqual({ log: true, repeated: 0 });
    clock.advance(60_000);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 1673 });
    expect(filter.admit('db down')).toEqual({ log: false, repeated: 0 });
    clock.advance(60_000);
    expect(filter.admit('db down')).toEqual({ log: true, repeated: 1 });
  });

  it('keeps a bounded number of keys', () => {
    const filter = createRepeatFilter(60_000, () => 0, 2);
    filter.admit('a');
    filter.admit('b');
    filter.admit('c'); // pushes out a
    expect(filter.admit('a').log).toBe(true);
    expect(filter.admit('c').log).toBe(false);
  });
});

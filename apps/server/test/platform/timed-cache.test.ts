import { describe, expect, it } from 'vitest';
import { TimedCache } from '../../src/lib/timed-cache.ts';

/** A load that answers when the test says so, with the value the data had when it began. */
function controlledLoads() {
  let data = 'v1';
  const pending: (() => void)[] = [];
  let loads = 0;
  const load = () => {
    loads += 1;
    const seen = data;
    return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
  };
  return {
    load,
    change: (value: string) => {
      data = value;
    },
    answerAll: () => pending.splice(0).forEach((answer) => answer()),
    loads: () => loads,
  };
}

describe('TimedCache', () => {
  it('calls at once share one load', async () => {
    const source = controlledLoads();
    const cache = new TimedCache(source.load, () => 0);
    const both = Promise.all([cache.get(), cache.get()]);
    source.answerAll();
    expect(await both).toEqual(['v1', 'v1']);
    expect(source.loads()).toBe(1);
    expect(await cache.get()).toBe('v1');
    expect(source.loads()).toBe(1);
  });

  it('after invalidate, a load begun before the change is neither handed to later callers nor kept', async () => {
    const source = controlledLoads();
    const cache = new TimedCache(source.load, () => 0);
    // a caller starts a load; meanwhile this process changes the data and invalidates
    const early = cache.get();
    source.change('v2');
    cache.invalidate();
    const late = cache.get();
    source.answerAll();
    expect(await early).toBe('v1');
    expect(await late).toBe('v2');
    expect(source.loads()).toBe(2);
    // what is kept is the load begun after the change, though both ended together
    expect(await cache.get()).toBe('v2');
    expect(source.loads()).toBe(2);
  });

  it('calls that bring the same newer stamp at once share one load (getAt)', async () => {
    let stamp = 1;
    let loads = 0;
    let answer: () => void = () => undefined;
    const cache = new TimedCache(
      () => {
        loads += 1;
        const seen = stamp;
        return new Promise<{ stamp: number }>((resolve) => (answer = () => resolve({ stamp: seen })));
      },
      () => 0,
    );
    const first = cache.get();
    answer();
    expect(await first).toEqual({ stamp: 1 });
    stamp = 2;
    const calls = Promise.all([1, 2, 3, 4].map(() => cache.getAt(2, (value) => value.stamp)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    answer();
    expect(await calls).toEqual([{ stamp: 2 }, { stamp: 2 }, { stamp: 2 }, { stamp: 2 }]);
    expect(loads).toBe(2);
  });

  it('fresh() answers the value only within the cache time', async () => {
    let clock = 0;
    const cache = new TimedCache(async () => 'v', () => clock, 1_000);
    expect(cache.fresh()).toBeNull();
    await cache.get();
    expect(cache.fresh()).toBe('v');
    clock = 1_000;
    expect(cache.fresh()).toBeNull();
  });
});

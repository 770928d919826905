import { describe, expect, it } from 'vitest';
import { Pairings } from '../src/pairings.ts';

// The pairing rule (issue 25 item 7, docs/cards.md "The card issuer"): a new pairing never pushes out one in use.
const shell = 'http://127.0.0.1:6300';
const minute = 60_000;

function clock() {
  let now = Date.UTC(2026, 10, 26, 9);
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const tokenOf = (name: string) => `${name}-token-0123456789`;

describe('Pairings', () => {
  it('an origin holds 8 pairings; while they are in use a 9th is refused and none is pushed out', () => {
    const time = clock();
    const pairings = new Pairings(time.now);
    expect(pairings.add(tokenOf('operator'), shell)).toBe(true);
    expect(pairings.switchTo(tokenOf('operator'))).toBe(true);
    const added = Array.from({ length: 33 }, (_, i) => pairings.add(tokenOf(`page${i}`), shell));
    expect(added.filter(Boolean)).toHaveLength(7);
    expect(pairings.has(tokenOf('operator'))).toBe(true);
    // a reload of a paired page (the same token) is never refused
    expect(pairings.add(tokenOf('page0'), shell)).toBe(true);
    // another origin, and callers without one, count apart
    expect(pairings.add(tokenOf('elsewhere'), 'http://localhost:6300')).toBe(true);
    expect(pairings.add(tokenOf('local'), '')).toBe(true);
  });

  it('a new pairing takes the place of the least recently used one idle for 15 minutes, never the current one', () => {
    const time = clock();
    const pairings = new Pairings(time.now);
    for (let i = 0; i < 8; i += 1) {
      pairings.add(tokenOf(`tab${i}`), shell);
      time.advance(1000);
    }
    pairings.switchTo(tokenOf('tab0'));
    time.advance(14 * minute);
    expect(pairings.add(tokenOf('new1'), shell)).toBe(false);
    time.advance(2 * minute);
    pairings.has(tokenOf('tab1')); // a card call keeps tab1 in use
    expect(pairings.add(tokenOf('new1'), shell)).toBe(true);
    expect(pairings.has(tokenOf('tab0'))).toBe(true); // current, though idle
    expect(pairings.has(tokenOf('tab1'))).toBe(true);
    expect(pairings.has(tokenOf('tab2'))).toBe(false); // the least recently used of the idle ones
    expect(pairings.has(tokenOf('new1'))).toBe(true);
    expect(pairings.has(tokenOf('tab3'))).toBe(true);
  });

  it('forgets a pairing after 12 idle hours', () => {
    const time = clock();
    const pairings = new Pairings(time.now);
    pairings.add(tokenOf('a'), shell);
    pairings.switchTo(tokenOf('a'));
    time.advance(12 * 60 * minute - 1);
    expect(pairings.has(tokenOf('a'))).toBe(true);
    time.advance(12 * 60 * minute + 1);
    expect(pairings.has(tokenOf('a'))).toBe(false);
    expect(pairings.isCurrent(tokenOf('a'))).toBe(false);
  });
});

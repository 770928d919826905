/**
 * Repeated identical errors (same key: a code or message) are logged once a window: the first one as it is, the
 * others counted; the first one after the window says how many were left out ("repeated N times"). A database that
 * went away answers every request with the same error: one line a window instead of thousands of stack traces.
 */
export interface RepeatFilter {
  /**
   * Whether to log this occurrence of `key` now: `log` false means counted and left out; when true, `repeated`
   * is the number left out since the last logged one (0 for none).
   */
  admit(key: string): { log: boolean; repeated: number };
}

export function createRepeatFilter(windowMs: number, now: () => number = Date.now, maxKeys = 1_000): RepeatFilter {
  const seen = new Map<string, { loggedAt: number; suppressed: number }>();
  return {
    admit(key) {
      const time = now();
      const entry = seen.get(key);
      if (entry !== undefined && time - entry.loggedAt < windowMs) {
        entry.suppressed += 1;
        return { log: false, repeated: 0 };
      }
      const repeated = entry?.suppressed ?? 0;
      // bounded: a flood of distinct messages cannot grow the map without end (the oldest key goes first)
      if (entry === undefined && seen.size >= maxKeys) seen.delete(seen.keys().next().value as string);
      seen.set(key, { loggedAt: time, suppressed: 0 });
      return { log: true, repeated };
    },
  };
}

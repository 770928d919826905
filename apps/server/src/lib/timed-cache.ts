/**
 * A value read from the database and kept for `ttlMs`: reference data that every call needs but that changes
 * rarely. A change made through this process shows at once (`invalidate`); one written by another server
 * process on the same database shows within `ttlMs`. Concurrent reads share one load.
 */
export class TimedCache<T> {
  private cached: { value: T; readAt: number } | null = null;
  private loading: Promise<T> | null = null;
  private generation = 0;
  /** Raised by invalidate: a load begun before it is neither kept nor handed to a caller that comes after it. */
  private epoch = 0;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly now: () => number,
    private readonly ttlMs = 30_000,
  ) {}

  /** Changes whenever the value is read anew: results derived from it may be keyed by it. */
  get version(): number {
    return this.generation;
  }

  async get(): Promise<T> {
    if (this.cached && this.now() - this.cached.readAt < this.ttlMs) return this.cached.value;
    if (!this.loading) {
      const loading = this.reload().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  /**
   * The value when it was read within the cache time, else null: a hot path answers from it without waiting on a
   * promise, and asks get() or getWithin() only when it is null.
   */
  fresh(): T | null {
    return this.cached && this.now() - this.cached.readAt < this.ttlMs ? this.cached.value : null;
  }

  /**
   * The value, but once one was read, never a wait of more than `waitMs` for a newer one: when the reload takes
   * longer, or fails (the database away), the last value, however old; the reload goes on for the next caller.
   * Before the first read (or after invalidate) it waits for the value like get().
   */
  async getWithin(waitMs: number): Promise<T> {
    const last = this.cached;
    if (!last) return this.get();
    if (this.now() - last.readAt < this.ttlMs) return last.value;
    const loading = this.get();
    loading.catch(() => undefined); // answered here with the last value
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(last.value), waitMs);
    });
    try {
      return await Promise.race([loading, late]);
    } catch {
      return last.value;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The value for a call that read change stamp `stamp` (db/change-stamps.ts); `stampOf` tells the stamp a value was
   * read under (its load reads the stamp first; null: unknown, the value is taken as it is). A value read under another
   * stamp is read again: a newer stamp is a change, an older one a database that went back (restored, failed over).
   * The read that follows is taken when it is as new as the call's stamp or newer; a load already under way when the
   * call read its stamp may be older: then once more (three reads at most).
   */
  async getAt(stamp: number, stampOf: (value: T) => number | null): Promise<T> {
    let kept = await this.get();
    for (let reads = 0; reads < 3; reads += 1) {
      const seen = stampOf(kept);
      if (seen === null || seen === stamp || (reads > 0 && seen > stamp)) break;
      // not invalidate(): calls that bring the same new stamp at once share one load, and the stamp check above
      // tells whether the load they shared is new enough
      this.cached = null;
      kept = await this.get();
    }
    return kept;
  }

  /** The last value read, however old, or null before the first read (for a caller that must answer anyway). */
  get last(): T | null {
    return this.cached?.value ?? null;
  }

  /**
   * After a change: the next caller reads the value anew. A load already under way may have read before the change,
   * so it is neither waited for nor kept (its own callers, who asked before the change, still get it).
   */
  invalidate(): void {
    this.cached = null;
    this.loading = null;
    this.epoch += 1;
  }

  private async reload(): Promise<T> {
    const epoch = this.epoch;
    const readAt = this.now();
    const value = await this.load();
    if (epoch === this.epoch) {
      this.cached = { value, readAt };
      this.generation += 1;
    }
    return value;
  }
}

/**
 * A value read from the database and kept for `ttlMs`: reference data that every call needs but that changes
 * rarely. A change made through this process shows at once (`invalidate`); one written by another server
 * process on the same database shows within `ttlMs`. Concurrent reads share one load.
 */
export class TimedCache<T> {
  private cached: { value: T; readAt: number } | null = null;
  private loading: Promise<T> | null = null;
  private generation = 0;

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
    this.loading ??= this.reload().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** The last value read, however old, or null before the first read (for a caller that must answer anyway). */
  get last(): T | null {
    return this.cached?.value ?? null;
  }

  invalidate(): void {
    this.cached = null;
  }

  private async reload(): Promise<T> {
    const readAt = this.now();
    const value = await this.load();
    this.cached = { value, readAt };
    this.generation += 1;
    return value;
  }
}

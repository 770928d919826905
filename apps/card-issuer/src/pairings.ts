import { createHash } from 'node:crypto';

const maxPairings = 32;
const idleMs = 12 * 3600_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Browser sessions paired with this issuer (spec §7 cardDeviceToken): kept only as hashes, in memory (a restart
 * asks the shell to pair again), at most 32, forgotten after 12 idle hours.
 */
export class Pairings {
  private readonly seen = new Map<string, number>();
  private current: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  add(token: string): void {
    this.forgetIdle();
    const key = hash(token);
    this.seen.delete(key);
    this.seen.set(key, this.now());
    while (this.seen.size > maxPairings) {
      const oldest = this.seen.keys().next().value;
      if (oldest === undefined) break;
      this.seen.delete(oldest);
    }
  }

  /** Whether the token is paired; a use keeps it alive. */
  has(token: string | undefined): boolean {
    if (!token) return false;
    this.forgetIdle();
    const key = hash(token);
    if (!this.seen.has(key)) return false;
    this.seen.set(key, this.now());
    return true;
  }

  /** Makes a paired session the one operating the reader. */
  switchTo(token: string): boolean {
    if (!this.has(token)) return false;
    this.current = hash(token);
    return true;
  }

  isCurrent(token: string): boolean {
    return this.current === hash(token);
  }

  private forgetIdle(): void {
    const limit = this.now() - idleMs;
    for (const [key, at] of this.seen) if (at < limit) this.seen.delete(key);
  }
}

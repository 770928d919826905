import { createHash } from 'node:crypto';

/** Pairings one origin may hold: a few tabs of the shell, reloaded at will (a reload keeps its token). */
const maxPerOrigin = 8;
/** A pairing used (paired again, switched to, a card call) this recently is in use: never replaced. */
const inUseMs = 15 * 60_000;
const idleMs = 12 * 3600_000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

interface Pairing {
  /** The Origin of the page that paired it ('' for a caller on this PC without one). */
  origin: string;
  usedAt: number;
}

/**
 * Browser sessions paired with this issuer (spec §7 cardDeviceToken): kept only as hashes, in memory (a restart
 * asks the shell to pair again), forgotten after 12 idle hours.
 *
 * Why a new pairing is refused rather than pushing another out (issue 25 item 7): any page of an allowed origin
 * can pair, so a page that paired over and over used to push the shell's own pairing out of the table (990209).
 * Now each origin holds at most 8 pairings, and a new one only takes the place of a pairing that is not in use:
 * idle for 15 minutes and not the current one (the last to SwitchIdentity). While all 8 are in use it is refused
 * (990212). So a page cannot push out the operator, and a page of another allowed origin cannot even fill the
 * operator's table; the operator's reload keeps its token and is never refused, and a second tab pairs in a free
 * place or in that of a tab closed 15 minutes ago. What such a page can still do is fill its own origin's free
 * places, so that a new tab waits up to 15 minutes: a nuisance, against losing the reader mid-operation.
 */
export class Pairings {
  private readonly seen = new Map<string, Pairing>();
  private current: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Pairs the token for the page at `origin`; false when that origin's pairings are all in use. */
  add(token: string, origin: string): boolean {
    this.forgetIdle();
    const key = hash(token);
    const now = this.now();
    const known = this.seen.get(key);
    if (known) {
      known.usedAt = now;
      return true;
    }
    const ofOrigin = [...this.seen].filter(([, pairing]) => pairing.origin === origin);
    if (ofOrigin.length >= maxPerOrigin) {
      const replaceable = ofOrigin
        .filter(([other, pairing]) => other !== this.current && pairing.usedAt <= now - inUseMs)
        .sort(([, a], [, b]) => a.usedAt - b.usedAt)[0];
      if (!replaceable) return false;
      this.seen.delete(replaceable[0]);
    }
    this.seen.set(key, { origin, usedAt: now });
    return true;
  }

  /** Whether the token is paired; a use keeps it alive. */
  has(token: string | undefined): boolean {
    if (!token) return false;
    this.forgetIdle();
    const pairing = this.seen.get(hash(token));
    if (!pairing) return false;
    pairing.usedAt = this.now();
    return true;
  }

  /** Makes a paired session the one operating the reader. */
  switchTo(token: string): boolean {
    if (!this.has(token)) return false;
    this.current = hash(token);
    return true;
  }

  isCurrent(token: string): boolean {
    this.forgetIdle();
    return this.current === hash(token);
  }

  private forgetIdle(): void {
    const limit = this.now() - idleMs;
    for (const [key, pairing] of this.seen) {
      if (pairing.usedAt >= limit) continue;
      this.seen.delete(key);
      if (this.current === key) this.current = null;
    }
  }
}

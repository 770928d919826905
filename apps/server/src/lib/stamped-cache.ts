/**
 * Values derived from data that has a change stamp (db/change-stamps.ts). An entry loaded by a call that read
 * stamp s answers every later call that read s or less, and is loaded again for a call that brings a newer stamp.
 * A load must run after its stamp was read (the session read comes first), so an entry is never older than its
 * stamp: a change committed on any node is seen at the next call that read the stamp it bumped.
 * Bounded: past `limit` keys, the least recently loaded goes.
 */
export class StampedCache<K, V> {
  private readonly entries = new Map<K, { stamp: number; value: V }>();

  constructor(private readonly limit = 10_000) {}

  async get(key: K, stamp: number, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.stamp >= stamp) return entry.value;
    const value = await load();
    const now = this.entries.get(key);
    // two loads of one key may finish out of order: the one read under the newer stamp stays
    if (!now || now.stamp <= stamp) {
      this.entries.delete(key);
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
      this.entries.set(key, { stamp, value });
    }
    return value;
  }

  /** Forgets every entry (a change made by this process that no stamp covers). */
  clear(): void {
    this.entries.clear();
  }
}

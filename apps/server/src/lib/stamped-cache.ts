/**
 * Values derived from data that has a change stamp (db/change-stamps.ts). An entry answers the calls that read the
 * stamp it was loaded under, and is loaded again for a call that read another one. Another, not only a newer one: a
 * stamp that went back (a database restored from a backup, a fail-over to a standby that had not seen the last
 * changes) means the data went back too. A load runs after its call read the stamp (the session read comes first),
 * so an entry is never older than its stamp. Bounded: past `limit` keys, the least recently loaded goes.
 */
export class StampedCache<K, V> {
  private readonly entries = new Map<K, { stamp: number; value: V }>();

  constructor(private readonly limit = 10_000) {}

  async get(key: K, stamp: number, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = await load();
    this.entries.delete(key);
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { stamp, value });
    return value;
  }
}

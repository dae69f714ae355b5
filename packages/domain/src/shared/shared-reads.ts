/** More keys than this and the whole cache is dropped: a bound on memory, not an eviction policy. */
const MAX_KEYS = 10_000;

/**
 * Reads kept for a while and shared while they run: the callers asking for a key while its read is
 * in flight wait for that read, not one each (under load, every caller in flight when an entry
 * expires would otherwise read again). An answer is kept for `ttlMs` from when it arrives, so a
 * change reaches callers within that time; a failed read, or an answer `keep` refuses, is dropped
 * once it settles and the next caller reads again.
 */
export class SharedReads<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly keep: (value: V) => boolean = () => true,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    if (this.entries.size > MAX_KEYS) this.entries.clear();
    const entry = { value: read(), expires: Infinity };
    this.entries.set(key, entry);
    // Only this entry: a newer read of the key may have replaced it meanwhile.
    const drop = () => void (this.entries.get(key) === entry && this.entries.delete(key));
    entry.value.then((value) => (this.keep(value) ? (entry.expires = this.now() + this.ttlMs) : drop()), drop);
    return entry.value;
  }
}

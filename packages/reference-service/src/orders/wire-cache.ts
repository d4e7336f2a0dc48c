/**
 * A byte-bounded LRU of rendered GET /v0/orders pages (orders-page.ts), under two keys each:
 *
 * - the query and the organisation's list version (bumped in the same transaction as every
 *   change to one of its orders): a repeated poll is answered without reading any order;
 * - the query, the total and every `<id>@<wire_version>` of the page, read from the database
 *   on every other request (`wire_version` is bumped by every re-render, so a key names
 *   exactly one stored value, even when another process writes the database): a page whose
 *   orders did not change is not assembled again.
 *
 * Least recently used entries leave first once the byte budget is exceeded.
 */
export class ByteLru {
  private readonly entries = new Map<string, Buffer>();
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert: a Map iterates in insertion order, which is our recency order.
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: Buffer): void {
    const old = this.entries.get(key);
    if (old) {
      this.size -= old.length;
      this.entries.delete(key);
    }
    if (value.length > this.maxBytes) return;
    this.entries.set(key, value);
    this.size += value.length;
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(k);
      this.size -= v.length;
    }
  }

  get bytes(): number {
    return this.size;
  }
}

/**
 * A byte-bounded LRU of rendered JSON, used by GET /v0/orders for two things:
 *
 * - each order's wire JSON under `<id>@<wire_version>`: `wire_version` is bumped in the
 *   same transaction as every re-render, so a key names exactly one stored value (even when
 *   another process writes the database);
 * - whole response bodies under a key made of the query, the total and every
 *   `<id>@<wire_version>` of the page, which the handler reads from the database on every
 *   request: a repeated poll of an unchanged page is served without rebuilding it.
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

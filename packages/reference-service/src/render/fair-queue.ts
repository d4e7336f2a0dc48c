/**
 * Jobs waiting for a render thread, one first-in-first-out line per owner (an organisation),
 * served in turns: each owner with work waiting gets one job out before any owner gets a
 * second. So one organisation asking for 50 pictures delays another's single picture by at
 * most one job per thread, not by 50.
 */
export class FairQueue<T> {
  /** In turn order: the owner served next is first (a Map keeps insertion order). */
  private readonly lines = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Jobs `owner` has waiting. */
  sizeOf(owner: string): number {
    return this.lines.get(owner)?.length ?? 0;
  }

  /** Owners with jobs waiting, and how many each. */
  sizes(): Record<string, number> {
    return Object.fromEntries([...this.lines].map(([owner, line]) => [owner, line.length]));
  }

  push(owner: string, item: T): void {
    const line = this.lines.get(owner);
    if (line) line.push(item);
    else this.lines.set(owner, [item]);
    this.count++;
  }

  /** The next job: the first of the owner whose turn it is; that owner goes to the end. */
  take(): T | undefined {
    const next = this.lines.entries().next();
    if (next.done) return undefined;
    const [owner, line] = next.value;
    const item = line.shift()!;
    this.lines.delete(owner);
    if (line.length > 0) this.lines.set(owner, line);
    this.count--;
    return item;
  }

  /** Empties the queue, returning every job in it. */
  drain(): T[] {
    const all = [...this.lines.values()].flat();
    this.lines.clear();
    this.count = 0;
    return all;
  }
}

/**
 * Each id's position in a list, mapped on the first lookup. A search's ids (100,000 with a big
 * mirror) took ~27 ms to map as its results arrived, and the first screen looks none up: the
 * map's hover, the open record and the basket's hidden entries do, later.
 */
export class IdPositions {
  private map: Map<string, number> | null = null;

  constructor(private readonly ids: readonly string[]) {}

  /** How many ids (the map's size unless an id repeats: the last position wins). */
  get size(): number {
    return this.ids.length;
  }

  get(id: string): number | undefined {
    return this.lookup().get(id);
  }

  has(id: string): boolean {
    return this.lookup().has(id);
  }

  private lookup(): Map<string, number> {
    if (!this.map) {
      const map = new Map<string, number>();
      this.ids.forEach((id, i) => map.set(id, i));
      this.map = map;
    }
    return this.map;
  }
}

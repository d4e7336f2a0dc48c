/**
 * The distinct ids each list of a pass brought (a record listed twice counts once), so a pass
 * is judged by what it saw, never by how many records the pages held: a list whose pages
 * repeated one record and skipped another has as many records as the service's total and one
 * record fewer than it. Also the spelling each record is stored under: ids are compared
 * exactly, but one that differs from an id the pass saw only by case or surrounding whitespace
 * is the same record under another spelling (variants.ts). Kept in memory for the lists read in
 * this run (about 150 bytes an id: 15 MB for a 100,000-record list); a list resumed from a
 * checkpoint starts from the ids the pass stamped before (`seedsOf`).
 */
import type Database from 'better-sqlite3';
import type { ResourceName } from '../mirror/writers';

/** An id up to case and surrounding whitespace (ASCII, as SQLite's `lower` and `trim` read it). */
export function normId(id: string): string {
  return id
    .replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, '')
    .replace(/[A-Z]+/g, (c) => c.toLowerCase());
}

export class PassIds {
  private readonly parts = new Map<number, Set<string>>();
  /** Normalised id -> the spelling the pass stores it under (the first it saw). */
  private readonly spellings = new Map<string, string>();
  /** Records without a usable id, per list: each counts as one (none can be told apart). */
  private readonly anonymous = new Map<number, number>();
  /** Resumed lists whose earlier ids cannot be told apart (judged by their records). */
  private readonly unknownParts = new Set<number>();

  private set(part: number): Set<string> {
    let s = this.parts.get(part);
    if (!s) this.parts.set(part, (s = new Set()));
    return s;
  }

  /** The spelling `id` is stored under in this pass: the first seen of it, up to case and spacing. */
  spelling(id: string): string {
    const n = normId(id);
    const known = this.spellings.get(n);
    if (known !== undefined) return known;
    this.spellings.set(n, id);
    return id;
  }

  /** Every normalised id the pass saw (an incremental pass's few, to look for stored variants). */
  norms(): string[] {
    return [...this.spellings.keys()];
  }

  /** The spelling seen for a normalised id, if the pass saw one. */
  spellingOf(norm: string): string | undefined {
    return this.spellings.get(norm);
  }

  /**
   * Records `id` as seen in list `part`, under its spelling: returns that spelling, and whether
   * the list brought it before.
   */
  see(part: number, id: string): { id: string; repeat: boolean } {
    const spelled = this.spelling(id);
    const s = this.set(part);
    if (s.has(spelled)) return { id: spelled, repeat: true };
    s.add(spelled);
    return { id: spelled, repeat: false };
  }

  /** A record now stored under `to` instead of `from` (a variant merged into a known row). */
  respell(from: string, to: string): void {
    this.spellings.set(normId(to), to);
    for (const s of this.parts.values()) if (s.delete(from)) s.add(to);
  }

  /** A record without a usable id (not stored, counted as seen: the service counts it too). */
  addAnonymous(part: number): void {
    this.anonymous.set(part, (this.anonymous.get(part) ?? 0) + 1);
  }

  /** Ids seen before this run: their spellings, and (`exact`) as seen by list `part`. */
  seed(part: number, ids: readonly string[], exact: boolean): void {
    for (const id of ids) this.spelling(id);
    if (!exact) {
      this.unknownParts.add(part);
      return;
    }
    const s = this.set(part);
    for (const id of ids) s.add(id);
  }

  known(part: number): boolean {
    return !this.unknownParts.has(part);
  }

  distinct(part: number): number {
    return (this.parts.get(part)?.size ?? 0) + (this.anonymous.get(part) ?? 0);
  }
}

/**
 * The ids a pass stamped so far within one list's scope: the resource's rows for single-list
 * resources and a first list, one AOI's assets (`exact`). A later search of a catalog plan of
 * several cannot be told apart (searches may overlap): its seeds are the whole pass's, for their
 * spellings, and such a resumed list is judged by its records.
 */
export function makePassIdSeeds(sqlite: Database.Database) {
  const of = (sql: string) => sqlite.prepare(sql).pluck();
  const single: Record<Exclude<ResourceName, 'assets'>, Database.Statement> = {
    orders: of('SELECT id FROM mirror_orders WHERE pass_id = ?'),
    orderItems: of('SELECT id FROM mirror_order_items WHERE pass_id = ?'),
    aois: of('SELECT aoi_id FROM mirror_aois WHERE pass_id = ?'),
    indices: of('SELECT id FROM mirror_indices WHERE pass_id = ?'),
    catalogs: of('SELECT record_id FROM mirror_catalog_seen WHERE pass_id = ?'),
  };
  const assets = of('SELECT id FROM mirror_assets WHERE pass_id = ? AND aoi_id = ?');
  return (
    resource: ResourceName,
    passId: string,
    scope: { part: number; parts: number; aoiId?: string | undefined },
  ): { ids: string[]; exact: boolean } => {
    if (resource === 'assets')
      return { ids: assets.all(passId, scope.aoiId) as string[], exact: true };
    // Lists run in order: what the pass stamped before its second list is the first list's.
    const exact = scope.part === 0 || scope.parts === 1;
    return { ids: single[resource].all(passId) as string[], exact };
  };
}

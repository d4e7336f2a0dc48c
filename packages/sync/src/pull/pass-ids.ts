/**
 * The distinct ids each list of a pass brought (a record listed twice counts once), so a pass
 * is judged by what it saw, never by how many records the pages held: a list whose pages
 * repeated one record and skipped another has as many records as the service's total and one
 * record fewer than it. Kept in memory for the lists read in this run (about 100 bytes an id:
 * 10 MB for a 100,000-record list); a list resumed from a checkpoint starts from the ids the
 * pass stamped before (`seedsOf`).
 */
import type Database from 'better-sqlite3';
import type { ResourceName } from '../mirror/writers';

export class PassIds {
  private readonly parts = new Map<number, Set<string>>();
  /** Records without a usable id, per list: each counts as one (none can be told apart). */
  private readonly anonymous = new Map<number, number>();
  /** Resumed lists whose earlier ids cannot be told apart (judged by their records). */
  private readonly unknownParts = new Set<number>();

  private set(part: number): Set<string> {
    let s = this.parts.get(part);
    if (!s) this.parts.set(part, (s = new Set()));
    return s;
  }

  /** Records `id` as seen in list `part`; false when that list brought it before. */
  add(part: number, id: string): boolean {
    const s = this.set(part);
    if (s.has(id)) return false;
    s.add(id);
    return true;
  }

  /** A record without a usable id (not stored, counted as seen: the service counts it too). */
  addAnonymous(part: number): void {
    this.anonymous.set(part, (this.anonymous.get(part) ?? 0) + 1);
  }

  has(part: number, id: string): boolean {
    return this.parts.get(part)?.has(id) ?? false;
  }

  /** Ids seen before this run (a resumed list): counted as seen. */
  seed(part: number, ids: Iterable<string>): void {
    const s = this.set(part);
    for (const id of ids) s.add(id);
  }

  /** A resumed list whose earlier ids are not known: its distinct count is not either. */
  unknown(part: number): void {
    this.unknownParts.add(part);
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
 * resources and a first list, one AOI's assets. `null` where the rows cannot say which list
 * brought them (a later search of a catalog plan: searches may overlap): such a resumed list is
 * judged by its records.
 */
export function makePassIdSeeds(sqlite: Database.Database) {
  const of = (sql: string) => sqlite.prepare(sql).pluck();
  const single: Partial<Record<ResourceName, Database.Statement>> = {
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
  ): string[] | null => {
    if (resource === 'assets') return assets.all(passId, scope.aoiId) as string[];
    // Lists run in order: what the pass stamped before its second list is the first list's.
    if (scope.part > 0 && scope.parts > 1) return null;
    return single[resource]!.all(passId) as string[];
  };
}

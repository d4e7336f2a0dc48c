/**
 * The footprints of ALL catalog records a search matches, in one compact answer (a map draws
 * them; a result page holds only `limit` records). The matches come from the same compiled SQL
 * as the search (`@eo/catalog-store`); their rings from `catalog_footprints`, which the catalog
 * writers keep beside the R*Tree as Float32 pairs: no stored record is parsed. The answer for
 * every record, which a launch draws first, is kept in the mirror for the next launch
 * (`kept-footprints.ts`).
 */
import {
  COMPACT_LAYOUT,
  compileCatalogSql,
  footprintPoints,
  withQueryGeometry,
} from '@eo/catalog-store';
import type { CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { MIRROR_ORG } from '../mirror/rows';
import { keptKey, makeKeptFootprints } from './kept-footprints';
import { matchesKey } from './matches-key';

/**
 * Record ids and their rings, in the same order: footprint i is the id
 * `idText.slice(idOffsets[i], idOffsets[i + 1])` and owns points `offsets[i]` to
 * `offsets[i + 1] - 1` of `coords` (lon, lat per point; no closing point). The ids are one
 * string and their offsets, the form the desktop's wire carries and the kept answer stores:
 * 100,000 ids as an array were split, joined again and measured again on every launch (in a
 * fresh process, reading and encoding the kept answer took 95 to 114 ms that way, 73 to 81 ms
 * this way). `footprintIds` makes the array.
 * Read-only: the last answer is kept and handed out again for the same search.
 */
export interface CatalogFootprints {
  /** Every id, joined without a separator. */
  readonly idText: string;
  /** `count + 1` entries, from 0 to `idText.length` (UTF-16 units, as `slice` takes them). */
  readonly idOffsets: Uint32Array;
  /** `count + 1` entries, from 0 to the number of points. */
  readonly offsets: Uint32Array;
  readonly coords: Float32Array;
}

/** How many footprints an answer holds. */
export const footprintCount = (fp: CatalogFootprints): number => fp.idOffsets.length - 1;

/** The answer's ids, in its order. */
export function footprintIds(fp: CatalogFootprints): string[] {
  const o = fp.idOffsets;
  const ids = new Array<string>(o.length - 1);
  for (let i = 0; i < ids.length; i++) ids[i] = fp.idText.slice(o[i], o[i + 1]);
  return ids;
}

const EMPTY: CatalogFootprints = Object.freeze({
  idText: '',
  idOffsets: new Uint32Array(1),
  offsets: new Uint32Array(1),
  coords: new Float32Array(0),
});

/** Separates ids in the one-row answer (an id holding it is read row by row instead). */
const ID_SEPARATOR = 30;

/**
 * Every match in one row: ids, ring lengths and the rings themselves each aggregated by SQLite
 * (all three in the same row order), so 100,000 matches cost three values in JS, not 100,000
 * rows of a string and a Buffer each (2 to 4 times slower, most of it allocation).
 */
interface Joined {
  n: number;
  ids: string | null;
  lengths: string | null;
  rings: Buffer | null;
}
type Row = [string, Buffer];

/** The one-row answer, or null when it cannot be split back exactly (then: row by row). */
function joined(r: Joined): CatalogFootprints | null {
  if (r.n === 0) return EMPTY;
  if (r.ids === null || r.lengths === null || r.rings === null) return null;
  const ids = unjoin(r.ids, r.n);
  const lengths = r.lengths.split(',');
  if (ids === null || lengths.length !== r.n) return null;
  const offsets = new Uint32Array(r.n + 1);
  for (let i = 0; i < r.n; i++) {
    const points = footprintPoints({ byteLength: Number(lengths[i]) });
    if (points === null) return null; // a damaged row: row by row skips it
    offsets[i + 1] = offsets[i]! + points;
  }
  if (offsets[r.n]! * 8 !== r.rings.byteLength) return null;
  const coords = new Float32Array(offsets[r.n]! * 2);
  new Uint8Array(coords.buffer).set(r.rings);
  return { ...ids, offsets, coords };
}

/**
 * `n` ids joined by the separator as the ids' text and offsets, or null when the separators are
 * not exactly `n - 1` (an id holds one). Found one by one, not split: no string per id.
 */
function unjoin(text: string, n: number): Pick<CatalogFootprints, 'idText' | 'idOffsets'> | null {
  const sep = String.fromCharCode(ID_SEPARATOR);
  const idOffsets = new Uint32Array(n + 1);
  let from = 0;
  for (let i = 1; i < n; i++) {
    const at = text.indexOf(sep, from);
    if (at < 0) return null;
    idOffsets[i] = at - (i - 1);
    from = at + 1;
  }
  if (text.indexOf(sep, from) >= 0) return null;
  idOffsets[n] = text.length - (n - 1);
  return { idText: n > 1 ? text.replaceAll(sep, '') : text, idOffsets };
}

/** Each match's row; rows whose ring is not whole points are left out. */
function rowByRow(rows: Row[]): CatalogFootprints {
  let points = 0;
  for (const row of rows) points += footprintPoints(row[1]) ?? 0;
  const ids: string[] = [];
  const idOffsets = new Uint32Array(rows.length + 1);
  const offsets = new Uint32Array(rows.length + 1);
  const coords = new Float32Array(points * 2);
  const bytes = new Uint8Array(coords.buffer);
  let p = 0;
  for (const [id, ring] of rows) {
    const n = footprintPoints(ring);
    if (n === null) continue; // a damaged row: nothing to draw
    bytes.set(ring, p * 8);
    p += n;
    ids.push(id);
    offsets[ids.length] = p;
    idOffsets[ids.length] = idOffsets[ids.length - 1]! + id.length;
  }
  const whole = ids.length === rows.length;
  return {
    idText: ids.join(''),
    idOffsets: whole ? idOffsets : idOffsets.slice(0, ids.length + 1),
    offsets: whole ? offsets : offsets.slice(0, ids.length + 1),
    coords,
  };
}

/**
 * An answer and its search (`matchesKey`: paging and sort left out, they change nothing here).
 * `keptKey` and `readAt` say whether and how it may be kept for the next launch
 * (`kept-footprints.ts`).
 */
interface Answer {
  key: string;
  value: CatalogFootprints;
  keptKey: string | null;
  readAt: number;
}

/** Needs `eo_intersects` and `eo_rfc3339` installed on `sqlite` (the offline search does it). */
export function makeCatalogFootprints(sqlite: Database.Database) {
  const kept = makeKeptFootprints(sqlite);
  /**
   * The last answer: the launch reads the first screen's footprints while the page loads, and
   * the page's own call (sorted by date) then finds them here.
   */
  let last: Answer | null = null;

  function read(req: CatalogSearchRequest, key: string): Answer {
    const readAt = kept.dataVersion();
    const c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
    if (c.empty) return { key, value: EMPTY, keptKey: null, readAt };
    const k = keptKey(c);
    const held = k === null ? null : kept.get(k);
    if (held) return { key, value: held, keptKey: null, readAt };
    const run = <T>(sql: string, all: (st: Database.Statement, p: object) => T): T => {
      const go = (params: Record<string, unknown>) => all(sqlite.prepare(sql), params);
      return c.geometry === null
        ? go(c.params)
        : withQueryGeometry(sqlite, c.geometry, (token) => go({ ...c.params, token }));
    };
    // The search's FROM drives; each match's ring is one primary-key lookup.
    const from = `FROM ${c.from} CROSS JOIN catalog_footprints f ON f.seq = c.seq WHERE ${c.where}`;
    const value =
      run(
        `SELECT count(*) AS n, group_concat(c.id, char(${ID_SEPARATOR})) AS ids,
          group_concat(length(f.ring)) AS lengths,
          CAST(group_concat(f.ring, '') AS BLOB) AS rings ${from}`,
        (st, p) => joined(st.get(p) as Joined),
      ) ?? rowByRow(run(`SELECT c.id, f.ring ${from}`, (st, p) => st.raw().all(p) as Row[]));
    return { key, value, keptKey: k, readAt };
  }

  return {
    /** `req` is a parsed search request (paging and sort are ignored: every match counts). */
    footprints(req: CatalogSearchRequest): CatalogFootprints {
      const key = matchesKey(req);
      if (last?.key !== key) last = read(req, key);
      return last.value;
    },
    /**
     * Keeps the last answer for the next launch, when its search is one that may be kept and
     * no other connection wrote since it was read (then the next launch reads it again). Called
     * once the first screen is up: with 100,000 records it writes ~4.8 MB (~48 bytes a record).
     */
    keep(): boolean {
      const l = last;
      if (!l || l.keptKey === null) return false;
      const done = kept.put(l.keptKey, l.value, l.readAt);
      l.keptKey = null; // kept, or not to be tried again for this answer
      return done;
    },
    /** Forget the last answer: the catalog records changed (a sync wrote, or a clear). */
    invalidate(): void {
      last = null;
    },
  };
}

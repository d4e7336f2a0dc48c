/**
 * Writes of catalog records and their R*Tree entries. The service inserts records as orders
 * are fulfilled; the mirror upserts what a sync pass fetched and deletes what a complete pass
 * no longer saw. Every writer keeps `catalog_rtree` and `catalog_footprints` (the map's ring,
 * `footprints.ts`) in step with `catalog_records`.
 */
import type { CatalogRecord, Geometry } from '@eo/domain';
import {
  Geometry as GeometrySchema,
  geometryBbox,
  isBlank,
  isoTimestamp,
  tryParseRfc3339,
  readId,
  readInstant,
  readNumber,
  readText,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { encodeGeometry } from './compact/geometry-blob';
import { packRecord, storedText, storeRecordText } from './compact/record-blob';
import { sharedTexts, sharedValuesOf } from './compact/shared-texts';
import { footprintBlob, footprintRing, footprintWriter } from './footprints';
import { COMPACT_LAYOUT, JSON_LAYOUT, type CatalogLayout } from './layout';

export type CatalogRecordOut = z.input<typeof CatalogRecord>;

/** The links search filters on that the record itself may not carry (org scope, order ids). */
export interface CatalogLinks {
  readonly orgId: string;
  readonly orderId: string | null;
  readonly orderItemId: string | null;
}

/** Columns both layouts write, in `recordRow` order; then the layout's own (`layoutColumns`). */
const SHARED_COLUMNS = [
  'id',
  'org_id',
  'task_id',
  'order_item_id',
  'order_id',
  'item_id',
  'collection',
  'datetime_us',
  'cloud_cover',
  'off_nadir',
  'gsd',
  'min_lon',
  'min_lat',
  'max_lon',
  'max_lat',
  'created_at_us',
  'updated_at_us',
];
const JSON_COLUMNS = ['record_json'];
const COMPACT_COLUMNS = ['platform', 'sun_elevation', 'item_updated_us', 'geometry', 'record'];

type Bounds = readonly [number, number, number, number];

const NONE: readonly string[] = Object.freeze([]);

/** A JSON object (not an array), as the writers read a record's parts. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The shared values a record's stored text names, as a writer finds them in the record. */
export function sharedValuesOfText(json: string): string[] {
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return [];
  }
  const details = isRecord(record) && isRecord(record.details) ? record.details : {};
  const p = isRecord(details.properties) ? details.properties : {};
  return sharedValuesOf(details, p);
}

/** A catalog record whose `id` cannot be read: it cannot be stored (nothing to key it by). */
export class CatalogRecordIdError extends Error {
  constructor(readonly received: unknown) {
    super(
      `catalog record: field "id" is unusable (received ${JSON.stringify(received) ?? 'nothing'})`,
    );
    this.name = 'CatalogRecordIdError';
  }
}

/** How a writer reads the indexed columns from a record. */
export type CatalogReading = 'strict' | 'lenient';

interface FieldReaders {
  /** `details.properties.datetime`: what catalog search's `datetime` filter compares. */
  datetime(v: unknown): number | null;
  /** `created_at` / `updated_at`. */
  stamp(v: unknown): number | null;
  num(v: unknown): number | null;
  text(v: unknown): string | null;
  id(v: unknown): string | null;
}

/**
 * The service's own records, read as the domain's reference search reads them (this package's
 * property test holds its SQL to `runCatalogSearch`): only numbers are numbers, `datetime` is
 * an RFC 3339 string, and a timestamp outside the spec's layout is an error (its data is valid).
 */
const STRICT: FieldReaders = {
  datetime(v) {
    if (typeof v !== 'string') return null;
    const r = tryParseRfc3339(v);
    return r.ok ? r.value : null;
  },
  stamp: (v) => (v ? isoTimestamp.parse(v as string) : null),
  num: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null),
  text: (v) => (typeof v === 'string' ? v : null),
  id: (v) => (typeof v === 'string' ? v : null),
};

/**
 * The mirror's reading of what a real service sends: any ISO 8601 / RFC 3339 instant or epoch
 * number, numeric strings as numbers, numeric ids as strings, `""` as nothing (the domain's
 * lenient readers). The JSON stays as received.
 */
const LENIENT: FieldReaders = {
  datetime: readInstant,
  stamp: readInstant,
  num: readNumber,
  text: readText,
  id: readId,
};

const readersOf = (reading: CatalogReading): FieldReaders =>
  reading === 'lenient' ? LENIENT : STRICT;

/**
 * The indexed column values of a record (in `COLUMNS` order), its footprint bounds, and the
 * fields that were sent but could not be read (their columns are NULL; a footprint that cannot
 * be read has no R*Tree entry). A record without `details` is stored with those columns NULL.
 */
function recordRow(
  record: CatalogRecordOut,
  links: CatalogLinks,
  read: FieldReaders,
  layout: LayoutWriter,
  /** The record's text when it is stored already (kept as it is); else `JSON.stringify`. */
  json?: string,
): { row: unknown[]; bounds: Bounds | null; geometry: unknown; unreadable: readonly string[] } {
  const raw = record as unknown as Record<string, unknown>;
  const id = read.id(raw.id);
  if (id === null) throw new CatalogRecordIdError(raw.id);
  let unreadable = NONE;
  const flag = (field: string) => {
    if (unreadable === NONE) unreadable = [];
    (unreadable as string[]).push(field);
  };
  const details = isRecord(raw.details) ? raw.details : {};
  if (!isBlank(raw.details) && details !== raw.details) flag('details');
  const p = isRecord(details.properties) ? details.properties : {};
  /** A value sent but not read is flagged; the typed column is NULL and the JSON keeps it. */
  const col = <T>(v: unknown, reader: (v: unknown) => T | null, field: string): T | null => {
    const out = reader(v);
    if (out === null && !isBlank(v)) flag(field);
    return out;
  };
  let bounds: Bounds | null = null;
  if (!isBlank(details.geometry)) {
    let b: ReturnType<typeof geometryBbox> = null;
    try {
      b = geometryBbox(details.geometry as Geometry);
    } catch {
      // Read as unreadable below.
    }
    if (b && b.every(Number.isFinite)) bounds = b as unknown as Bounds;
    // No bounds: an empty geometry (no R*Tree entry, spatial filters never match it, as the
    // service) or one that is not GeoJSON (checked only here, off the hot path).
    else if (b || !GeometrySchema.safeParse(details.geometry).success) flag('details.geometry');
  }
  const row = [
    id,
    links.orgId,
    read.id(raw.task_id),
    links.orderItemId,
    links.orderId,
    read.id(details.id) ?? '',
    read.text(details.collection),
    col(p.datetime, read.datetime, 'details.properties.datetime'),
    col(p['eo:cloud_cover'], read.num, 'details.properties.eo:cloud_cover'),
    col(p['view:off_nadir'], read.num, 'details.properties.view:off_nadir'),
    col(p.gsd, read.num, 'details.properties.gsd'),
    bounds?.[0] ?? null,
    bounds?.[1] ?? null,
    bounds?.[2] ?? null,
    bounds?.[3] ?? null,
    // NOT NULL columns: 0 (the epoch) when missing or unreadable; the JSON keeps what came.
    col(raw.created_at, read.stamp, 'created_at') ?? 0,
    col(raw.updated_at, read.stamp, 'updated_at') ?? 0,
  ];
  layout.finish(row, { json: json ?? JSON.stringify(record), details, p, read, col });
  return { row, bounds, geometry: details.geometry, unreadable };
}

/** What a layout adds to the shared columns of a row. */
interface LayoutWriter {
  readonly columns: readonly string[];
  finish(
    row: unknown[],
    r: {
      /** The record's text as stored. */
      readonly json: string;
      readonly details: Record<string, unknown>;
      readonly p: Record<string, unknown>;
      readonly read: FieldReaders;
      readonly col: <T>(v: unknown, reader: (v: unknown) => T | null, field: string) => T | null;
    },
  ): void;
}

const JSON_WRITER: LayoutWriter = {
  columns: JSON_COLUMNS,
  finish: (row, r) => void row.push(r.json),
};

/**
 * When the compact layout packs a record: at once, or (`later`) stored as its text and listed
 * in `catalog_unpacked` for `makeCatalogPacker` (`compact/packing.ts`), which a caller runs
 * when the app is idle. `later` is what a sync uses, up to `MAX_UNPACKED` rows waiting.
 */
export type CatalogPacking = 'now' | 'later';

/**
 * Rows stored as text at most (about 2.5 kB each on generated records: ~0.6 GB): past it a
 * `later` writer packs at once, so a sync far larger than this never needs several times the
 * mirror's packed size on disk before it is packed.
 */
export const MAX_UNPACKED = 250_000;

/** The compact layout's typed columns; returns the geometry blob they hold. */
function pushCompactColumns(
  row: unknown[],
  { details, p, read, col }: Parameters<LayoutWriter['finish']>[1],
): Uint8Array | null {
  const geometry = encodeGeometry(details.geometry);
  row.push(
    typeof p.platform === 'string' ? p.platform : null,
    col(p['view:sun_elevation'], read.num, 'details.properties.view:sun_elevation'),
    // As the mirror's incremental sync reads its watermark: any readable instant.
    readInstant(p.updated),
    geometry,
  );
  return geometry;
}

/** Where a compact row keeps what a packed record is read against (`RecordContext`). */
const COMPACT_ROW = (() => {
  const at = (c: string) => [...SHARED_COLUMNS, ...COMPACT_COLUMNS].indexOf(c);
  return {
    id: at('id'),
    itemId: at('item_id'),
    createdAtUs: at('created_at_us'),
    updatedAtUs: at('updated_at_us'),
    datetimeUs: at('datetime_us'),
    geometry: at('geometry'),
    record: at('record'),
  };
})();

/** The context a compact row's record is packed against, from the row's own values. */
function contextOfRow(row: readonly unknown[]) {
  return {
    id: row[COMPACT_ROW.id] as string,
    itemId: row[COMPACT_ROW.itemId] as string,
    createdAtUs: row[COMPACT_ROW.createdAtUs] as number,
    updatedAtUs: row[COMPACT_ROW.updatedAtUs] as number,
    datetimeUs: row[COMPACT_ROW.datetimeUs] as number | null,
    geometry: row[COMPACT_ROW.geometry] as Uint8Array | null,
  };
}

/** The compact layout packing at once: the typed columns, the exact footprint, the packed record. */
function compactWriter(sqlite: Database.Database): LayoutWriter {
  const shared = sharedTexts(sqlite);
  return {
    columns: COMPACT_COLUMNS,
    finish(row, r) {
      pushCompactColumns(row, r);
      row.push(packRecord(r.json, sharedValuesOf(r.details, r.p), contextOfRow(row), shared));
    },
  };
}

/** The compact layout with the record stored as its text (packed later): needs no database. */
const STORED_TEXT_WRITER: LayoutWriter = {
  columns: COMPACT_COLUMNS,
  finish(row, r) {
    pushCompactColumns(row, r);
    row.push(storeRecordText(r.json));
  },
};

function layoutWriter(sqlite: Database.Database, layout: CatalogLayout): LayoutWriter {
  return layout === COMPACT_LAYOUT ? compactWriter(sqlite) : JSON_WRITER;
}

function rtreeInsert(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    'INSERT INTO catalog_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  return (seq: number | bigint, b: Bounds) => insert.run(seq, b[0], b[2], b[1], b[3]);
}

/**
 * Inserts a new record (its id must be new). Returns the fields that were sent but could not
 * be indexed (empty for a record that follows the spec).
 */
export function makeCatalogInserter(
  sqlite: Database.Database,
  reading: CatalogReading = 'strict',
  layout: CatalogLayout = JSON_LAYOUT,
) {
  const read = readersOf(reading);
  const writer = layoutWriter(sqlite, layout);
  const columns = [...SHARED_COLUMNS, ...writer.columns];
  const insert = sqlite.prepare(
    `INSERT INTO catalog_records (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const insertRtree = rtreeInsert(sqlite);
  const writeFootprint = footprintWriter(sqlite);
  return (record: CatalogRecordOut, links: CatalogLinks): readonly string[] => {
    const { row, bounds, geometry, unreadable } = recordRow(record, links, read, writer);
    const r = insert.run(...row);
    if (bounds) insertRtree(r.lastInsertRowid, bounds);
    writeFootprint(r.lastInsertRowid, geometry, bounds);
    return unreadable;
  };
}

/** The upsert of a row by id, keeping its `seq` when it exists; returns the seq. */
function rowUpsert(sqlite: Database.Database, columns: readonly string[]) {
  const updates = columns
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  const upsert = sqlite.prepare(
    `INSERT INTO catalog_records (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
     ON CONFLICT(id) DO UPDATE SET ${updates} RETURNING seq`,
  );
  return (row: readonly unknown[]) => (upsert.get(...row) as { seq: number }).seq;
}

/**
 * Inserts or replaces a record by id, keeping its row (seq) when it exists. Call inside a
 * transaction when writing many: the R*Tree entry is rewritten with the row. Returns the fields
 * that were sent but could not be indexed; throws CatalogRecordIdError (before writing) when
 * the id is unusable. The compact layout packing `later` is a preparer and a row writer
 * (below) one after the other.
 */
export function makeCatalogUpserter(
  sqlite: Database.Database,
  reading: CatalogReading = 'strict',
  layout: CatalogLayout = JSON_LAYOUT,
  packing: CatalogPacking = 'now',
) {
  if (layout === COMPACT_LAYOUT && packing === 'later') {
    const prepare = makeCatalogRowPreparer(reading);
    const write = makeCatalogRowWriter(sqlite);
    return (record: CatalogRecordOut, links: CatalogLinks): readonly string[] => {
      const prepared = prepare(record, links);
      write(prepared);
      return prepared.unreadable;
    };
  }
  const read = readersOf(reading);
  const writer = layoutWriter(sqlite, layout);
  const upsert = rowUpsert(sqlite, [...SHARED_COLUMNS, ...writer.columns]);
  const dropRtree = sqlite.prepare('DELETE FROM catalog_rtree WHERE seq = ?');
  const insertRtree = rtreeInsert(sqlite);
  const writeFootprint = footprintWriter(sqlite);
  return (record: CatalogRecordOut, links: CatalogLinks): readonly string[] => {
    const { row, bounds, geometry, unreadable } = recordRow(record, links, read, writer);
    const seq = upsert(row);
    dropRtree.run(seq);
    if (bounds) insertRtree(seq, bounds);
    writeFootprint(seq, geometry, bounds);
    return unreadable;
  };
}

/**
 * A catalog record made ready to write where no database is at hand (a sync's reading thread):
 * its compact row with the record stored as its text (packed later), its R*Tree bounds, its
 * footprint ring and the fields that were sent but could not be indexed. Plain data, so it
 * crosses to the thread that writes it (`makeCatalogRowWriter`).
 */
export interface PreparedCatalogRow {
  readonly row: unknown[];
  readonly bounds: Bounds | null;
  /** The map's ring as stored (`footprintBlob`), null when there is none to draw. */
  readonly ring: Uint8Array | null;
  readonly unreadable: readonly string[];
}

/**
 * Prepares records for `makeCatalogRowWriter`; throws CatalogRecordIdError for an unusable id.
 * `text`: the record's JSON text as received, when the caller has it (stored as it is, instead
 * of `JSON.stringify(record)`); it must be the text `record` was parsed from.
 */
export function makeCatalogRowPreparer(reading: CatalogReading = 'strict') {
  const read = readersOf(reading);
  return (record: CatalogRecordOut, links: CatalogLinks, text?: string): PreparedCatalogRow => {
    const { row, bounds, geometry, unreadable } = recordRow(
      record,
      links,
      read,
      STORED_TEXT_WRITER,
      text,
    );
    const ring = footprintRing(geometry, bounds);
    return { row, bounds, ring: ring ? footprintBlob(ring) : null, unreadable };
  };
}

/**
 * Writes prepared rows by id, keeping a row's `seq` when it exists, with its R*Tree entry and
 * footprint, and lists it in `catalog_unpacked` for the packer; past `MAX_UNPACKED` rows
 * waiting it packs the row at once, from its text (the same bytes as packing it later). Returns
 * the row's seq. Call inside a transaction when writing many.
 */
export function makeCatalogRowWriter(sqlite: Database.Database) {
  const upsert = rowUpsert(sqlite, [...SHARED_COLUMNS, ...COMPACT_COLUMNS]);
  const dropRtree = sqlite.prepare('DELETE FROM catalog_rtree WHERE seq = ?');
  const insertRtree = rtreeInsert(sqlite);
  const putRing = sqlite.prepare(
    'INSERT OR REPLACE INTO catalog_footprints (seq, ring) VALUES (?, ?)',
  );
  const dropRing = sqlite.prepare('DELETE FROM catalog_footprints WHERE seq = ?');
  const waiting = sqlite.prepare('INSERT OR IGNORE INTO catalog_unpacked (seq) VALUES (?)');
  // Counted once: between two writers only the packer takes rows off the list.
  let unpacked = sqlite.prepare('SELECT count(*) FROM catalog_unpacked').pluck().get() as number;
  let shared: ReturnType<typeof sharedTexts> | null = null;
  return (prepared: PreparedCatalogRow): number => {
    let row = prepared.row;
    const stored = unpacked < MAX_UNPACKED;
    if (!stored) {
      const json = storedText(row[COMPACT_ROW.record] as Uint8Array)!;
      shared ??= sharedTexts(sqlite);
      row = [...row];
      row[COMPACT_ROW.record] = packRecord(
        json,
        sharedValuesOfText(json),
        contextOfRow(row),
        shared,
      );
    }
    const seq = upsert(row);
    if (stored) unpacked += waiting.run(seq).changes;
    dropRtree.run(seq);
    if (prepared.bounds) insertRtree(seq, prepared.bounds);
    if (prepared.ring) putRing.run(seq, prepared.ring);
    else dropRing.run(seq);
    return seq;
  };
}

/** Deletes records (and their R*Tree entries and footprints) by id; returns how many rows went. */
export function makeCatalogDeleter(sqlite: Database.Database) {
  const dropRtree = sqlite.prepare(
    `DELETE FROM catalog_rtree WHERE seq IN
       (SELECT seq FROM catalog_records WHERE id IN (SELECT value FROM json_each(?)))`,
  );
  const dropFootprints = sqlite.prepare(
    `DELETE FROM catalog_footprints WHERE seq IN
       (SELECT seq FROM catalog_records WHERE id IN (SELECT value FROM json_each(?)))`,
  );
  const drop = sqlite.prepare(
    'DELETE FROM catalog_records WHERE id IN (SELECT value FROM json_each(?))',
  );
  return (ids: readonly string[]): number => {
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    dropRtree.run(list);
    dropFootprints.run(list);
    return drop.run(list).changes;
  };
}

/**
 * Writes a record stored before in another layout into this one: the same row number (`seq`),
 * so its R*Tree entry and footprint stay valid, and its JSON text exactly as it was stored
 * (`json`; `record` is that text parsed, or what can be read of it). For upgrades of a
 * database in place; the row must not exist yet.
 */
export function makeCatalogMover(
  sqlite: Database.Database,
  reading: CatalogReading,
  layout: CatalogLayout,
) {
  const read = readersOf(reading);
  const writer = layoutWriter(sqlite, layout);
  const columns = ['seq', ...SHARED_COLUMNS, ...writer.columns];
  const insert = sqlite.prepare(
    `INSERT INTO catalog_records (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  return (seq: number, record: CatalogRecordOut, json: string, links: CatalogLinks): void => {
    const { row } = recordRow(record, links, read, writer, json);
    insert.run(seq, ...row);
  };
}

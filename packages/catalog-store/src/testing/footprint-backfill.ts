/**
 * Replays the migration that creates `catalog_footprints` on a database that already holds
 * catalog records (what an upgrade meets), for the migration tests of the service and the
 * mirror: their records must come out with exactly the rings the writers store for new ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { catalogDdl } from '../ddl';
import { CATALOG_FOOTPRINTS_BACKFILL } from '../footprints';
import { makeCatalogUpserter, type CatalogRecordOut } from '../writes';

interface Opened {
  readonly sqlite: Database.Database;
  close(): void;
}

/** A copy of `folder` holding only the migrations before `tag` (its journal cut there). */
export function migrationsBefore(folder: string, tag: string, into: string): string {
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at < 0) throw new Error(`no migration ${tag} in ${folder}`);
  const entries = journal.entries.slice(0, at);
  fs.mkdirSync(path.join(into, 'meta'), { recursive: true });
  for (const e of entries)
    fs.copyFileSync(path.join(folder, `${e.tag}.sql`), path.join(into, `${e.tag}.sql`));
  fs.writeFileSync(
    path.join(into, 'meta', '_journal.json'),
    JSON.stringify({ ...journal, entries }),
  );
  return into;
}

const square = (x: number, y: number, d: number) => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

/** Records of every kind of footprint: polygon, multi-polygon, point (its box), none. */
function records(): CatalogRecordOut[] {
  const geometries: unknown[] = [
    { type: 'Polygon', coordinates: [square(12.345678, 45.678901, 0.1)] },
    { type: 'MultiPolygon', coordinates: [[square(0, 0, 1)], [square(5, 5, 2)]] },
    { type: 'Point', coordinates: [1, 2] },
    {
      type: 'Polygon',
      coordinates: [
        [
          [179.9, 10],
          [-179.9, 10],
          [-179.9, 11],
          [179.9, 11],
          [179.9, 10],
        ],
      ],
    },
    null,
  ];
  return geometries.map(
    (geometry, i) =>
      ({
        id: `backfill-${i}`,
        created_at: '2024-01-01T00:00:00Z',
        details: { id: `item-${i}`, geometry, properties: { datetime: '2024-01-01T00:00:00Z' } },
      }) as unknown as CatalogRecordOut,
  );
}

export interface FootprintBackfill {
  /** `catalog_footprints` (seq, hex ring) where the writers stored the records. */
  readonly written: string[];
  /** The same records copied into a database from before the migration, then migrated. */
  readonly backfilled: string[];
  /** Whether the old database had the table before (it must not). */
  readonly existedBefore: boolean;
  /** Whether the migration file holds `CATALOG_FOOTPRINTS_BACKFILL` (whitespace aside). */
  readonly backfillVerbatim: boolean;
}

/**
 * `open` is the package's own opener (it installs `eo_footprint_ring` and migrates to the
 * latest); `tag` the footprint migration. Works in `dir` (a temp folder the caller removes).
 */
export function replayFootprintBackfill(opts: {
  readonly folder: string;
  readonly tag: string;
  readonly dir: string;
  readonly open: (file: string) => Opened;
}): FootprintBackfill {
  const rows = (sqlite: Database.Database) =>
    (
      sqlite
        .prepare('SELECT seq, hex(ring) AS ring FROM catalog_footprints ORDER BY seq')
        .all() as Array<{
        seq: number;
        ring: string;
      }>
    ).map((r) => `${r.seq}:${r.ring}`);

  // Written by the writers into the catalog as the service keeps it (`catalogDdl()`, JSON
  // records: the layout every database had before the footprints), copied into the old file.
  const freshFile = path.join(opts.dir, 'fresh.db');
  const freshDb = new Database(freshFile);
  for (const statement of catalogDdl()) freshDb.exec(statement);
  const fresh = { sqlite: freshDb, close: () => freshDb.close() };
  const upsert = makeCatalogUpserter(fresh.sqlite, 'lenient');
  for (const r of records()) upsert(r, { orgId: 'org-backfill', orderId: null, orderItemId: null });
  const written = rows(fresh.sqlite);
  fresh.close();

  const oldFile = path.join(opts.dir, 'old.db');
  const old = new Database(oldFile);
  migrate(drizzle(old), {
    migrationsFolder: migrationsBefore(opts.folder, opts.tag, path.join(opts.dir, 'before')),
  });
  const existedBefore =
    old.prepare("SELECT 1 FROM sqlite_master WHERE name = 'catalog_footprints'").get() !==
    undefined;
  old.prepare('ATTACH DATABASE ? AS fresh').run(freshFile);
  old.exec(`INSERT INTO catalog_records SELECT * FROM fresh.catalog_records;
    INSERT INTO catalog_rtree SELECT * FROM fresh.catalog_rtree;`);
  old.exec('DETACH DATABASE fresh');
  old.close();

  const upgraded = opts.open(oldFile);
  const backfilled = rows(upgraded.sqlite);
  upgraded.close();
  const oneLine = (sql: string) => sql.replace(/\s+/g, ' ');
  const migration = fs.readFileSync(path.join(opts.folder, `${opts.tag}.sql`), 'utf8');
  const backfillVerbatim = oneLine(migration).includes(oneLine(CATALOG_FOOTPRINTS_BACKFILL));
  return { written, backfilled, existedBefore, backfillVerbatim };
}

/**
 * Takes a field package into this laptop's mirror. First every record and picture is read and
 * checked (checks.ts), a chunk at a time, letting the event loop run between chunks; then the
 * package's origin is checked against the mirror's, and everything is merged in ONE transaction:
 * refused, damaged or interrupted, nothing changes.
 *
 * The merge: a record the mirror lacks is added; one it holds is replaced only by a newer one
 * (by its change time, `records.ts`); anything else of the laptop's own stays as it is (the
 * outbox is never touched). Records keep their primary keys, so nothing is duplicated. A record
 * replaced keeps the pass that last saw it here; one added carries `package:<id>` as its pass
 * (a later full pass that does not see it removes it, as it would any record the service no
 * longer lists). Reference lists, archive scenes and saved archive searches' lists this mirror
 * lacks are added; its own are kept. Pictures of records the mirror holds are added where it
 * has none.
 */
import fs from 'node:fs';
import type { FieldPackageResource } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { ImageryStore, ImageryVariant } from '../mirror/imagery';
import type { MirrorOrigin } from '../mirror/origin';
import { makeCreatedRecords } from '../mirror/created';
import { makeMirrorWriters } from '../mirror/writers';
import { checkPicture, checkRecord, checkedParts } from './checks';
import type { PixelSink } from './pixels';
import { checkPackageInWorker, type PackageCheckLimits } from './check-in-worker';
import { openFieldPackage } from './read';
import { changeTimeOf } from './records';

export interface MergeCounts {
  readonly added: number;
  readonly updated: number;
  /** The mirror's own was as new or newer. */
  readonly kept: number;
}

export interface PackageImport {
  readonly packageId: string;
  readonly label: string;
  readonly records: Partial<Record<FieldPackageResource, MergeCounts>>;
  readonly pictures: MergeCounts;
  /** Offline rasters; `unkept`: carried, but this mirror keeps none. */
  readonly rasters: MergeCounts & { readonly unkept: number };
}

export interface MergeDeps {
  readonly sqlite: Database.Database;
  readonly imagery: ImageryStore;
  readonly origin: MirrorOrigin;
  readonly pixels: PixelSink & { readonly available: boolean };
  /** The check thread's limits (tests make them small). */
  readonly checkLimits?: Partial<PackageCheckLimits> | undefined;
  /** The service this laptop is set up for, when the mirror has not recorded one yet. */
  readonly service?: string | null | undefined;
}

type Decision = 'add' | 'update' | 'keep';

function makeMerger(sqlite: Database.Database, imagery: ImageryStore, passId: string) {
  const writers = makeMirrorWriters(sqlite);
  const created = makeCreatedRecords(sqlite);
  const local = (sql: string) =>
    sqlite.prepare<[string], { json: string | null; pass: string | null; t?: number | null }>(sql);
  const q = {
    orders: local('SELECT json, pass_id AS pass FROM mirror_orders WHERE id = ?'),
    orderItems: local('SELECT json, pass_id AS pass FROM mirror_order_items WHERE id = ?'),
    aois: local('SELECT json, pass_id AS pass FROM mirror_aois WHERE aoi_id = ?'),
    assets: local('SELECT json, pass_id AS pass FROM mirror_assets WHERE id = ?'),
    indices: local('SELECT json, pass_id AS pass FROM mirror_indices WHERE id = ?'),
    catalogs: local(
      `SELECT NULL AS json, s.pass_id AS pass, nullif(c.updated_at_us, 0) AS t
       FROM catalog_records c LEFT JOIN mirror_catalog_seen s ON s.record_id = c.id WHERE c.id = ?`,
    ),
    visualizations: local('SELECT json, NULL AS pass FROM mirror_visualizations WHERE id = ?'),
    deliveries: local('SELECT json, NULL AS pass FROM mirror_deliveries WHERE id = ?'),
    jobs: local('SELECT json, NULL AS pass FROM mirror_jobs WHERE id = ?'),
    reference: local(
      `SELECT NULL AS json, NULL AS pass FROM mirror_reference
       WHERE json_array(kind, id) = ?`,
    ),
    archiveScenes: local(
      'SELECT NULL AS json, NULL AS pass, received_at_us AS t FROM mirror_archive_scenes WHERE id = ?',
    ),
    archiveSearches: local(
      'SELECT NULL AS json, NULL AS pass FROM mirror_archive_searches WHERE search_id = ?',
    ),
  } satisfies Record<FieldPackageResource, unknown>;
  const put = {
    reference: sqlite.prepare(
      'INSERT OR IGNORE INTO mirror_reference (kind, id, name, json) VALUES (@kind, @id, @name, @json)',
    ),
    scene: sqlite.prepare(
      `INSERT OR REPLACE INTO mirror_archive_scenes (id, collection_id, satellite_id, datetime_us,
         cloud_cover, min_lon, min_lat, max_lon, max_lat, json, received_at_us)
       VALUES (@id, @collection_id, @satellite_id, @datetime_us, @cloud_cover, @min_lon, @min_lat,
         @max_lon, @max_lat, @json, @received_at_us)`,
    ),
    search: sqlite.prepare(
      `INSERT INTO mirror_archive_searches (search_id, name, plan, received, total, incomplete,
         drift, skipped, attempted_at_us, last_complete_at_us, last_error_json)
       VALUES (@search_id, @name, @plan, @received, @total, @incomplete, @drift, @skipped,
         @attempted_at_us, @last_complete_at_us, @last_error_json)`,
    ),
    listed: sqlite.prepare(
      `INSERT OR IGNORE INTO mirror_archive_search_scenes (search_id, scene_id, rank)
       SELECT ?, id, ? FROM mirror_archive_scenes WHERE id = ?`,
    ),
  };
  const sceneExists = sqlite
    .prepare<{ id: string }, number>(
      `SELECT EXISTS (SELECT 1 FROM catalog_records WHERE id = @id)
         OR EXISTS (SELECT 1 FROM mirror_archive_scenes WHERE id = @id)`,
    )
    .pluck();
  const pictureOwner = sqlite
    .prepare<{ variant: string; id: string }, number>(
      `SELECT CASE WHEN @variant LIKE 'index:%'
       THEN EXISTS (SELECT 1 FROM mirror_visualizations WHERE id = @id)
       ELSE EXISTS (SELECT 1 FROM catalog_records WHERE id = @id)
         OR EXISTS (SELECT 1 FROM mirror_archive_scenes WHERE id = @id) END`,
    )
    .pluck();

  function decide(resource: FieldPackageResource, id: string, record: Record<string, unknown>) {
    const row = q[resource].get(id);
    if (!row) return { decision: 'add' as Decision, pass: passId };
    const theirs = changeTimeOf(resource, record);
    const ours =
      row.t !== undefined
        ? (row.t ?? null)
        : changeTimeOf(resource, row.json === null ? null : (JSON.parse(row.json) as unknown));
    const newer = theirs !== null && ours !== null && theirs > ours;
    return { decision: (newer ? 'update' : 'keep') as Decision, pass: row.pass ?? passId };
  }

  function write(resource: FieldPackageResource, record: Record<string, unknown>, pass: string) {
    switch (resource) {
      case 'visualizations':
        return created.putVisualization(record);
      case 'deliveries':
        return created.putDelivery(record);
      case 'jobs':
        return created.putJob(record);
      case 'reference':
        return put.reference.run(record);
      case 'archiveScenes':
        return put.scene.run(record);
      case 'archiveSearches': {
        const { scenes, ...row } = record as { scenes: string[] } & Record<string, unknown>;
        put.search.run(row);
        scenes.forEach((scene, rank) => put.listed.run(row.search_id, rank, scene));
        return;
      }
      default: {
        const issues = writers[resource].write([record], pass);
        const skipped = issues.find((i) => i.kind === 'skipped');
        if (skipped) throw new Error(skipped.message);
      }
    }
  }

  return {
    sceneExists: (id: string) => sceneExists.get({ id }) === 1,
    record(resource: FieldPackageResource, id: string, record: Record<string, unknown>): Decision {
      const { decision, pass } = decide(resource, id, record);
      // The mirror's own reference lists and saved searches' lists are its own passes'.
      const replaceable = resource !== 'reference' && resource !== 'archiveSearches';
      if (decision === 'add' || (decision === 'update' && replaceable))
        write(resource, record, pass);
      return decision === 'update' && !replaceable ? 'keep' : decision;
    },
    picture(p: {
      recordId: string;
      variant: string;
      data: Buffer;
      aoiId: string | null;
      legendJson: string | null;
    }): Decision {
      if (pictureOwner.get({ variant: p.variant, id: p.recordId }) !== 1) return 'keep';
      if (imagery.present(p.recordId, p.variant as ImageryVariant) === true) return 'keep';
      const meta =
        p.aoiId !== null && p.legendJson !== null
          ? { aoiId: p.aoiId, legendJson: p.legendJson }
          : undefined;
      imagery.put(p.recordId, p.variant as ImageryVariant, p.data, meta);
      return 'add';
    },
  };
}

const zero = (): { added: number; updated: number; kept: number } => ({
  added: 0,
  updated: 0,
  kept: 0,
});
const COUNT_KEY = { add: 'added', update: 'updated', keep: 'kept' } as const;

/**
 * Checks the package at `file` and merges it into the mirror; throws `PackageError` (damaged,
 * not ours, over a limit) or `OriginMismatchError` (another service or organisation) with
 * nothing changed.
 */
export async function importFieldPackage(
  deps: MergeDeps,
  file: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<PackageImport> {
  // Read and checked whole in a thread with memory and time limits before anything is merged.
  const size = fs.statSync(file).size;
  await checkPackageInWorker(file, size, deps.checkLimits);
  options.signal?.throwIfAborted();
  const pkg = openFieldPackage(file);
  try {
    const { manifest } = pkg;
    const merger = makeMerger(deps.sqlite, deps.imagery, `package:${manifest.id}`);
    const records: Partial<Record<FieldPackageResource, ReturnType<typeof zero>>> = {};
    const pictures = zero();
    const rasters = { ...zero(), unkept: 0 };
    deps.sqlite
      .transaction(() => {
        deps.origin.admit('The package', manifest.origin, 'package', deps.service ?? null);
        for (const chunk of pkg.records())
          for (const r of chunk) {
            const decision = merger.record(r.resource, r.recordId, checkRecord(r));
            (records[r.resource] ??= zero())[COUNT_KEY[decision]]++;
          }
        for (const chunk of pkg.pictures())
          for (const p of chunk) {
            checkPicture(p); // read again: the file may have changed since it was checked
            pictures[COUNT_KEY[merger.picture(p)]]++;
          }
        for (const { file: raster, parts } of pkg.rasters()) {
          if (!deps.pixels.available) rasters.unkept++;
          else if (!merger.sceneExists(raster.recordId) || deps.pixels.has(raster)) rasters.kept++;
          else {
            deps.pixels.put(raster, checkedParts(raster, parts()));
            rasters.added++;
          }
        }
      })
      .immediate();
    return { packageId: manifest.id, label: manifest.label, records, pictures, rasters };
  } finally {
    pkg.close();
  }
}

/** A package's manifest and counts, read and checked without merging (a preview). */
export function inspectFieldPackage(file: string) {
  const pkg = openFieldPackage(file);
  try {
    return { manifest: pkg.manifest, bytes: pkg.bytes, ...pkg.counts() };
  } finally {
    pkg.close();
  }
}

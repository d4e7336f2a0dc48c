/**
 * What the mirror's writers share (`writers.ts`, `catalog-writer.ts`): the resource names, the
 * issues a writer reports per record, the writer's interface, and the `mirror_unindexed` rows
 * that flag records stored without some indexed field.
 */
import type { PreparedCatalogRow } from '@eo/catalog-store';
import type { SyncResource } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { WireRecord } from './rows';

/** A mirrored resource (`SYNC_RESOURCES` of @eo/domain). */
export type ResourceName = SyncResource;

/** A record a writer stored without some indexed field, or could not store at all. */
export interface RecordIssue {
  /** `not-indexed`: stored, the field's column is NULL; `skipped`: not stored. */
  readonly kind: 'not-indexed' | 'skipped';
  readonly resource: ResourceName;
  /** The record's id as stored (numeric ids as strings); null when it has none. */
  readonly recordId: string | null;
  /** Position of the record in the batch given to `write`. */
  readonly index: number;
  /** Dotted path of the field in the record (`created_at`, `details.properties.datetime`). */
  readonly field: string;
  readonly message: string;
}

/** A record of a batch made ready to write (`MirrorWriter.prepare`); plain data. */
export interface PreparedRecord {
  readonly index: number;
  readonly id: string | null;
  /** Absent when the record cannot be stored (its issues say why). */
  readonly row?: PreparedCatalogRow;
  readonly issues: readonly RecordIssue[];
}

export interface MirrorWriter {
  /** Stores what it can of a batch; returns the records it could not index or store. */
  write(items: readonly unknown[], passId: string): RecordIssue[];
  /**
   * `write` in two halves, where the records are many (catalogs): `prepare` reads them into
   * rows and writes nothing, on the thread that reads the pages; `writePrepared` writes the
   * rows, on the sync's write thread (`pull/write-thread.ts`). `write` is the two in turn.
   */
  prepare?(items: readonly unknown[]): PreparedRecord[];
  writePrepared?(records: readonly PreparedRecord[], passId: string): RecordIssue[];
  /** Ids of rows no pass since `passId` saw: what `sweep` would remove. */
  unseen?(passId: string): string[];
  /**
   * Ids of rows `passId` did not see whose id is one of `norms` up to case and surrounding
   * whitespace (`normId` of pull/pass-ids.ts): another spelling of a record the pass stored.
   */
  variantsOf?(passId: string, norms: readonly string[]): string[];
  /** A stored record's JSON as it was written (undefined when there is none). */
  read?(id: string): unknown;
  /** Removes these rows (a record stored twice under two spellings); returns how many. */
  remove?(ids: readonly string[]): number;
  /** Removes rows no pass since `passId` saw; returns how many. */
  sweep(passId: string): number;
}

export function isRecord(v: unknown): v is WireRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A message naming the resource, record and field. */
function describe(resource: ResourceName, id: string | null, field: string, what: string): string {
  return `${resource} ${id === null ? '(no id)' : JSON.stringify(id)}: ${field}: ${what}`;
}

/** Adds the issues of one record (at `index` of the batch) to `issues`. */
export function reporter(
  issues: RecordIssue[],
  resource: ResourceName,
  recordId: string | null,
  index: number,
) {
  return (kind: RecordIssue['kind'], field: string, what: string) =>
    issues.push({
      kind,
      resource,
      recordId,
      index,
      field,
      message: describe(resource, recordId, field, what),
    });
}

/** `mirror_unindexed` rows of one resource: flag, clear (cheaply when none exist), sweep. */
export function unindexedOf(
  sqlite: Database.Database,
  resource: ResourceName,
  table: string,
  key: string,
) {
  const put = sqlite.prepare(
    'INSERT OR REPLACE INTO mirror_unindexed (resource, record_id, fields) VALUES (?, ?, ?)',
  );
  const drop = sqlite.prepare('DELETE FROM mirror_unindexed WHERE resource = ? AND record_id = ?');
  const any = sqlite.prepare('SELECT 1 FROM mirror_unindexed WHERE resource = ? LIMIT 1');
  const sweep = sqlite.prepare(
    `DELETE FROM mirror_unindexed WHERE resource = ? AND record_id NOT IN (SELECT ${key} FROM ${table})`,
  );
  // Skips a delete per clean record while the resource has no flagged row (the common case).
  let some = any.get(resource) !== undefined;
  return {
    mark(id: string, fields: readonly string[]) {
      if (fields.length > 0) {
        put.run(resource, id, JSON.stringify(fields));
        some = true;
      } else if (some) drop.run(resource, id);
    },
    sweep() {
      sweep.run(resource);
      some = any.get(resource) !== undefined;
    },
    forget(id: string) {
      if (some) drop.run(resource, id);
    },
  };
}

/** Path of a field in a catalog record (`details.properties.eo:cloud_cover`), for messages. */
export function valueAt(record: unknown, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/**
 * The catalog's writer: records stored as their text and packed when the app is idle
 * (`packing.ts`), each with its R*Tree entry, footprint and seen mark, linked to its order
 * through its task. `write` is `prepare` (rows read from the records, nothing written: the
 * thread that reads the pages can run it) then `writePrepared` (the rows written: the sync's
 * write thread can run it, `pull/write-thread.ts`).
 */
import {
  CatalogRecordIdError,
  COMPACT_LAYOUT,
  makeCatalogDeleter,
  makeCatalogRecordReader,
  makeCatalogRowPreparer,
  makeCatalogRowWriter,
  type CatalogRecordOut,
} from '@eo/catalog-store';
import { receivedTextOf } from '@eo/api-client';
import { readId } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeCatalogSeen } from './catalog-seen';
import { MIRROR_ORG, quote } from './rows';
import {
  isRecord,
  reporter,
  unindexedOf,
  valueAt,
  type MirrorWriter,
  type PreparedRecord,
  type RecordIssue,
} from './writer-parts';

/** `linkOf`: the order and order item of a task id (`mirror_tasks`). */
export function makeCatalogWriter(
  sqlite: Database.Database,
  linkOf: Database.Statement,
): MirrorWriter {
  const prepareRow = makeCatalogRowPreparer('lenient');
  const writeRow = makeCatalogRowWriter(sqlite);
  const deleteCatalog = makeCatalogDeleter(sqlite);
  const catalogUnindexed = unindexedOf(sqlite, 'catalogs', 'catalog_records', 'id');
  const seen = makeCatalogSeen(sqlite);
  const records = makeCatalogRecordReader(sqlite, COMPACT_LAYOUT);
  const prepareCatalog = (item: unknown, index: number): PreparedRecord => {
    const r = isRecord(item) ? item : {};
    const id = readId(r.id);
    const issues: RecordIssue[] = [];
    const issue = reporter(issues, 'catalogs', id, index);
    try {
      const taskId = readId(r.task_id);
      const link = taskId
        ? (linkOf.get(taskId) as { order_id: string; order_item_id: string } | undefined)
        : undefined;
      // Stored as the page carried it where the client kept that text (the record unchanged).
      const row = prepareRow(
        item as CatalogRecordOut,
        {
          orgId: MIRROR_ORG,
          orderId: link?.order_id ?? null,
          orderItemId: link?.order_item_id ?? null,
        },
        receivedTextOf(item),
      );
      for (const field of row.unreadable)
        issue('not-indexed', field, `cannot read ${quote(valueAt(item, field))}`);
      return { index, id, row, issues };
    } catch (e) {
      if (e instanceof CatalogRecordIdError) {
        issue(
          'skipped',
          'id',
          `no usable id (received ${quote(e.received)}); the record was not stored`,
        );
      } else {
        issue('skipped', '', `could not be stored: ${e instanceof Error ? e.message : e}`);
      }
      return { index, id, issues };
    }
  };
  const prepare = (items: readonly unknown[]) => items.map(prepareCatalog);
  const writePrepared = (prepared: readonly PreparedRecord[], passId: string) => {
    const issues: RecordIssue[] = [];
    const markSeen = seen.marker(passId);
    for (const { index, id, row, issues: found } of prepared) {
      try {
        if (row) {
          writeRow(row);
          markSeen(id!);
          catalogUnindexed.mark(id!, row.unreadable);
        }
        issues.push(...found);
      } catch (e) {
        const issue = reporter(issues, 'catalogs', id, index);
        issue('skipped', '', `could not be stored: ${e instanceof Error ? e.message : e}`);
      }
    }
    return issues;
  };
  return {
    unseen: (passId) => seen.unseen(passId),
    variantsOf: (passId, norms) => seen.variantsOf(passId, norms),
    read(id) {
      const json = records.byId(MIRROR_ORG, id);
      return json === null ? undefined : (JSON.parse(json) as unknown);
    },
    remove(ids) {
      for (const id of ids) {
        seen.drop(id);
        catalogUnindexed.forget(id);
      }
      return deleteCatalog(ids);
    },
    write: (items, passId) => writePrepared(prepare(items), passId),
    prepare,
    writePrepared,
    sweep(passId) {
      const ids = seen.unseen(passId);
      seen.dropUnseen(passId);
      const n = deleteCatalog(ids);
      catalogUnindexed.sweep();
      return n;
    },
  };
}

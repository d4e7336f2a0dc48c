/**
 * Which pass last saw each mirrored catalog record (what a pass's sweep removes when the
 * service no longer lists a record). Stored as small as it can be: each pass's id (a UUID)
 * once in `mirror_catalog_passes`, and per record its id and that pass's number in
 * `mirror_catalog_seen_marks` (`WITHOUT ROWID`: one B-tree keyed by record id), about 25 bytes
 * a record where the pass's text in every row took 60 (migration `0013_catalog_seen_numbers`).
 * The view `mirror_catalog_seen (record_id, pass_id)` reads them as one table for the readers
 * (passes, incremental sync, field packages); writes go through here.
 */
import type Database from 'better-sqlite3';
import { normSql } from './rows';

export interface CatalogSeen {
  /**
   * What marks records as seen by `passId`, in the transaction that writes them (made per
   * page: a pass's number is looked up again after any rollback).
   */
  marker(passId: string): (recordId: string) => void;
  /** Ids of records no mark of `passId` covers. */
  unseen(passId: string): string[];
  /** Ids of records another pass saw whose normalised id is one of `norms`. */
  variantsOf(passId: string, norms: readonly string[]): string[];
  /** Drops every mark of another pass than `passId`, and those passes. */
  dropUnseen(passId: string): void;
  /** Drops the mark of one record (removed from the mirror). */
  drop(recordId: string): void;
}

export function makeCatalogSeen(sqlite: Database.Database): CatalogSeen {
  const addPass = sqlite.prepare(
    'INSERT INTO mirror_catalog_passes (pass_id) VALUES (?) ON CONFLICT DO NOTHING',
  );
  const passNumber = sqlite
    .prepare('SELECT id FROM mirror_catalog_passes WHERE pass_id = ?')
    .pluck();
  const putMark = sqlite.prepare(
    'INSERT OR REPLACE INTO mirror_catalog_seen_marks (record_id, pass) VALUES (?, ?)',
  );
  const unseen = sqlite
    .prepare('SELECT record_id FROM mirror_catalog_seen WHERE pass_id <> ?')
    .pluck();
  const variants = sqlite
    .prepare(
      `SELECT record_id FROM mirror_catalog_seen WHERE pass_id <> ?
       AND ${normSql('record_id')} IN (SELECT value FROM json_each(?))`,
    )
    .pluck();
  // `IS NOT`: a pass that marked nothing has no number, and then every mark is another's.
  const dropMarks = sqlite.prepare(
    `DELETE FROM mirror_catalog_seen_marks
     WHERE pass IS NOT (SELECT id FROM mirror_catalog_passes WHERE pass_id = ?)`,
  );
  const dropPasses = sqlite.prepare('DELETE FROM mirror_catalog_passes WHERE pass_id <> ?');
  const dropMark = sqlite.prepare('DELETE FROM mirror_catalog_seen_marks WHERE record_id = ?');
  return {
    marker(passId) {
      addPass.run(passId);
      const pass = passNumber.get(passId) as number;
      return (recordId) => void putMark.run(recordId, pass);
    },
    unseen: (passId) => unseen.all(passId) as string[],
    variantsOf: (passId, norms) => variants.all(passId, JSON.stringify(norms)) as string[],
    dropUnseen(passId) {
      dropMarks.run(passId);
      dropPasses.run(passId);
    },
    drop(recordId) {
      dropMark.run(recordId);
    },
  };
}

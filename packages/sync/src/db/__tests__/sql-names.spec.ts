/**
 * Every SQL statement written as a string in sync's sources prepares against a freshly migrated
 * mirror database: a table or column renamed in the drizzle schema (and its migration) but not
 * in the SQL that names it fails here, not at run time on the path that reaches it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogDdl } from '@eo/catalog-store';
import { sqlNameCheck } from '@eo/catalog-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../open';
import { tempDir } from './temp';

const tmp = tempDir('sql-names');
afterAll(() => tmp.remove());

describe("sync's SQL names only what the schema has", () => {
  it('prepares every statement whose text is written out', () => {
    const mirror = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
    try {
      // The catalog as `0012_compact_catalog` leaves it to the upgrade (`compact-upgrade.ts`):
      // the JSON table renamed, without its indexes; dropped once emptied.
      const [jsonTable] = catalogDdl();
      mirror.sqlite.exec(jsonTable!.replace('`catalog_records`', '`catalog_records_json`'));
      const check = sqlNameCheck(mirror.sqlite, fileURLToPath(new URL('../..', import.meta.url)));
      expect(check.checked.length).toBeGreaterThanOrEqual(48);
      expect(check.unpreparable).toEqual([]);
      // Statements with run-time parts (table names, column lists: `check.dynamic`, 8 today in
      // mirror/, outbox/ and search/) are run by those folders' own tests.
    } finally {
      mirror.close();
    }
  });
});

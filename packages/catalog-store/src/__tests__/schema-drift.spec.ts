/**
 * The schema comparison the migration tests rely on: silent on a table made from the drizzle
 * definition (this package's test table), and naming each difference on one that drifted.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { catalogRecords } from '../table';
import { schemaDrift, schemaTables } from '../testing';
import { catalogDdl } from '../ddl';
import { tempCatalog } from './temp-store';

describe('schemaDrift', () => {
  it('finds nothing on the catalog table as the tests create it', () => {
    const store = tempCatalog('drift');
    try {
      expect(schemaTables({ catalogRecords, other: {}, n: 1 })).toEqual([catalogRecords]);
      expect(schemaDrift(store.sqlite, [catalogRecords])).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('names a missing column, a lost NOT NULL, a missing index and a missing unique', () => {
    const sqlite = new Database(':memory:');
    try {
      const [table, ...indexes] = catalogDdl();
      const drifted = table!
        .replace('`item_id` text NOT NULL', '`item_id` text')
        .replace(', `gsd` real', '');
      sqlite.exec(drifted);
      const dropped = ['catalog_task', 'catalog_records_id_unique'];
      const kept = indexes.filter(
        (d) => d.includes(' INDEX ') && !dropped.some((n) => d.includes(n)),
      );
      for (const ddl of kept) sqlite.exec(ddl);
      const drift = schemaDrift(sqlite, [catalogRecords]);
      expect(drift).toHaveLength(4);
      expect(drift.join('\n')).toMatch(/catalog_records columns: .*"gsd"/);
      expect(drift.join('\n')).toMatch(/catalog_records.item_id not null: database has false/);
      expect(drift.join('\n')).toMatch(/catalog_records indexes: .*"catalog_task"/);
      expect(drift.join('\n')).toMatch(/catalog_records unique columns: database has \[\]/);
    } finally {
      sqlite.close();
    }
  });
});

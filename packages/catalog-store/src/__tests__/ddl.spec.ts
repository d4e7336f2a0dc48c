/**
 * `catalogDdl()` is the catalog's layout in drizzle-kit's spelling: a database made from it
 * has no drift from the drizzle definitions, and its `sqlite_schema` names every part.
 */
import { describe, expect, it } from 'vitest';
import { catalogDdl } from '../ddl';
import { CATALOG_RTREE_DDL } from '../rtree';
import { freshCatalogSchema } from '../testing';

describe('catalogDdl', () => {
  it('creates the tables, the unique id, the search indexes and the R*Tree', () => {
    const ddl = catalogDdl();
    expect(ddl[0]).toMatch(
      /^CREATE TABLE `catalog_records` \(`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL, `id` text NOT NULL,/,
    );
    expect(ddl).toContain(
      'CREATE UNIQUE INDEX `catalog_records_id_unique` ON `catalog_records` (`id`)',
    );
    expect(ddl).toContain(
      'CREATE INDEX `catalog_org_dt_desc` ON `catalog_records` (`org_id`,"datetime_us" DESC,`id`)',
    );
    expect(ddl).toContain(
      'CREATE TABLE `catalog_footprints` (`seq` integer PRIMARY KEY NOT NULL, `ring` blob NOT NULL)',
    );
    expect(ddl.at(-1)).toBe(CATALOG_RTREE_DDL);
  });

  it("gives sqlite_schema entries for every part, the R*Tree's shadow tables included", () => {
    const names = freshCatalogSchema().map((e) => e.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'catalog_records',
        'catalog_records_id_unique',
        'catalog_task',
        'catalog_footprints',
        'catalog_rtree',
        'catalog_rtree_node',
      ]),
    );
    expect(names.filter((n) => n.startsWith('sqlite_'))).toEqual([]);
  });
});

/**
 * A temp SQLite file holding the catalog table, created from `catalogDdl()`: what the service's
 * and the mirror's migrations create (their migration tests compare both with it), without
 * depending on either.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { catalogDdl } from '../ddl';
import { JSON_LAYOUT, type CatalogLayout } from '../layout';

export interface TempCatalog {
  readonly sqlite: Database.Database;
  close(): void;
}

/** A fresh database file in its own temp folder, the catalog in `layout`; `close` removes both. */
export function tempCatalog(prefix: string, layout: CatalogLayout = JSON_LAYOUT): TempCatalog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `eo-catalog-store-${prefix}-`));
  const sqlite = new Database(path.join(dir, 'catalog.db'));
  for (const statement of catalogDdl(layout)) sqlite.exec(statement);
  return {
    sqlite,
    close() {
      sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

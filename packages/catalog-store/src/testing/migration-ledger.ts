/**
 * What drizzle recorded as applied, next to what a migrations folder holds: the "reopening
 * applies nothing twice" check of every migration test.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

export interface MigrationLedger {
  /** Rows of `__drizzle_migrations`. */
  readonly applied: number;
  /** The folder's `.sql` files, sorted. */
  readonly files: string[];
  /** The files `meta/_journal.json` lists, in its order. */
  readonly journalled: string[];
}

export function migrationLedger(sqlite: Database.Database, folder: string): MigrationLedger {
  const { n } = sqlite.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as {
    n: number;
  };
  const journal = JSON.parse(
    fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string }> };
  return {
    applied: n,
    files: fs
      .readdirSync(folder)
      .filter((f) => f.endsWith('.sql'))
      .sort(),
    journalled: journal.entries.map((e) => `${e.tag}.sql`),
  };
}

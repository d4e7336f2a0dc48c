/**
 * Every SQL statement written as a string in sync's sources prepares against a freshly migrated
 * mirror database: a table or column renamed in the drizzle schema (and its migration) but not
 * in the SQL that names it fails here, not at run time on the path that reaches it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSpatialFunctions, installTimeFunction } from '@eo/catalog-store';
import { sqlLiterals, unpreparable } from '@eo/catalog-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../open';
import { tempDir } from './temp';

const SRC = fileURLToPath(new URL('../..', import.meta.url));
const tmp = tempDir('sql-names');
afterAll(() => tmp.remove());

describe("sync's SQL names only what the schema has", () => {
  const mirror = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
  // The SQL functions the catalog search installs on its connection.
  installTimeFunction(mirror.sqlite);
  installSpatialFunctions(mirror.sqlite);
  afterAll(() => mirror.close());
  const found = sqlLiterals(SRC);

  it('prepares every statement whose text is written out', () => {
    expect(found.checked.length).toBeGreaterThanOrEqual(48);
    expect(unpreparable(mirror.sqlite, found.checked)).toEqual([]);
    // Statements with run-time parts (table names, column lists: `found.dynamic`, 8 today in
    // mirror/, outbox/ and search/) are run by those folders' own tests.
  });
});

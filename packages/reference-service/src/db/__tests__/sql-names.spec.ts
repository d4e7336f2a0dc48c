/**
 * Every SQL statement written as a string in the service's sources prepares against a freshly
 * migrated database: a table or column renamed in the drizzle schema (and its migration) but
 * not in the SQL that names it fails here, not at run time on the path that reaches it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlNameCheck, unpreparable } from '@eo/catalog-store/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { insertSql, ORDER_COLUMNS, ORDER_ITEM_COLUMNS, TASK_COLUMNS } from '../../orders/rows';
import { openDatabase } from '../client';

const SRC = fileURLToPath(new URL('../..', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-server-sql-names-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the service SQL names only what the schema has', () => {
  const service = openDatabase(path.join(dir, 'service.db'));
  afterAll(() => service.close());
  const check = sqlNameCheck(service.sqlite, SRC);

  it('prepares every statement whose text is written out', () => {
    expect(check.checked.length).toBeGreaterThanOrEqual(89);
    expect(check.unpreparable).toEqual([]);
  });

  it('prepares the orders inserts built from their column lists', () => {
    const built = [
      ['orders', ORDER_COLUMNS],
      ['order_items', ORDER_ITEM_COLUMNS],
      ['tasks', TASK_COLUMNS],
    ] as const;
    const statements = built.map(([table, columns]) => ({
      at: `insertSql(${table})`,
      sql: insertSql(table, columns),
    }));
    expect(unpreparable(service.sqlite, statements)).toEqual([]);
  });

  it('leaves only the statements with run-time parts (filters, column lists) unprepared', () => {
    // Each of these is run by its resource's list tests; a new one here is a choice to review.
    expect(check.dynamic.map((s) => s.at.split(':')[0]).sort()).toEqual([
      'aois/repository.ts',
      'aois/repository.ts',
      // The provider's archive search and a workflow's jobs (field-operations.spec runs them).
      'archive/archive-search.ts',
      'archive/archive-search.ts',
      'archive/satellite-search.ts',
      'archive/satellite-search.ts',
      'indices/repository.ts',
      'indices/repository.ts',
      'jobs/repository.ts',
      // The page statements of both scopes (organisation, one user): prepared when the service
      // starts, so every server test would fail on a misspelt name; page-assembly.spec runs them.
      'orders/orders-page.ts',
      'orders/orders-page.ts',
      'orders/repository.ts',
      'orders/repository.ts',
      'orders/rows.ts',
    ]);
  });
});

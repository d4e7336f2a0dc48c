import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatalogRecord, CatalogSearchRequest } from '@eo/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCatalogSearch } from '../../catalog/search';
import { openDatabase, type Database_ } from '../../db/client';
import { DEMO } from '@eo/fixtures';
import { generateCatalogRecords, insertCatalogRecords } from '../bulk-catalog';
import { seedDemo } from '../demo';

const opts = { orgId: DEMO.orgId, userId: DEMO.users[0].id, nowUs: Date.UTC(2026, 0, 1) * 1000 };

const opened: Array<{ db: Database_; dir: string }> = [];
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('bulk catalog records', () => {
  it('are valid catalog records, deterministic, the first N of a larger run', () => {
    const small = [...generateCatalogRecords(30, opts)];
    const large = [...generateCatalogRecords(60, opts)];
    expect(small).toHaveLength(30);
    expect(large.slice(0, 30)).toEqual(small);
    for (const r of large) expect(CatalogRecord.safeParse(r).success).toBe(true);
    expect(new Set(large.map((r) => r.id)).size).toBe(60);
    expect(large[0]!.id).toBe('cat-bulk-0000000');
    expect(large[0]!.details.assets).toEqual({});
  });

  it('go into the service catalog, found by its search', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bulk-test-'));
    const db = openDatabase(path.join(dir, 'eo.sqlite'));
    opened.push({ db, dir });
    seedDemo(db.sqlite, { nowMs: Date.now(), scenes: 10 });
    const before = (
      db.sqlite.prepare('SELECT count(*) AS n FROM catalog_records').get() as { n: number }
    ).n;
    const progress: number[] = [];
    const n = insertCatalogRecords(db.sqlite, 250, {
      ...opts,
      idPrefix: 'cat-t',
      onProgress: (k) => progress.push(k),
    });
    expect(n).toBe(250);
    expect(progress.at(-1)).toBe(250);
    const search = makeCatalogSearch(db.sqlite);
    const all = search(DEMO.orgId, CatalogSearchRequest.parse({ limit: 1000 }));
    expect(all.total).toBe(before + 250);
    const ids = all.json.map((j) => (JSON.parse(j) as { id: string }).id);
    expect(ids).toContain('cat-t-0000249');
    // Footprints are in the R*Tree: a bbox around one record's footprint finds it.
    const one = [...generateCatalogRecords(250, opts)][249]!;
    const [w, s, e, n2] = one.details.bbox as number[];
    const found = search(
      DEMO.orgId,
      CatalogSearchRequest.parse({ bbox: [w, s, e, n2], ids: ['cat-t-0000249'] }),
    );
    expect(found.total).toBe(1);
  });
});

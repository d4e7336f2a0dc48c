/**
 * Lists that move while a pass pages through them by offset, through the misbehaving proxy in
 * front of the reference service: records inserted at the head of the catalog after its first
 * page (every later page shifts: some records come twice, the new ones on no page), records
 * deleted after they were read (every later page shifts the other way: one record is on no
 * page). A pass must end with the mirror equal to the service's list, or `incomplete` with
 * nothing removed and a message saying why; never "complete" with records missing or gone.
 */
import { offsetOf } from '@eo/bench-kit';
import { DEMO } from '@eo/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import {
  catalogIdsInOrder,
  deleteCatalogRecords,
  insertNewestCatalogRecords,
  isList,
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';

let svc: MisbehavingService;
const files = mirrorFiles('moving-lists');
beforeAll(async () => {
  svc = await startMisbehavingService();
});
afterAll(async () => {
  files.close();
  await svc.close();
});

/** Runs `change` once, just before the service answers the page at `offset` of `path`. */
function onceBeforePage(path: string, offset: number, change: () => void) {
  let done = false;
  return svc.proxy.use(
    `change before ${path} @${offset}`,
    (r) => isList(path)(r) && offsetOf(r) === offset && !done,
    () => {
      done = true;
      change();
      return undefined;
    },
  );
}

describe('a list that moves while a pass reads it', () => {
  it('records inserted at the head of the catalog after its first page: the pass finds them', async () => {
    const db = files.fresh();
    const { client, drift } = svc.client();
    const engine = createSyncEngine({ db, client, drift, pageSize: 50, prefetch: false });
    await engine.sync({ resources: ['catalogs'] });

    const stop = onceBeforePage('/v0/catalogs/search', 50, () =>
      insertNewestCatalogRecords(svc.sqlite, 3, 'head-new'),
    );
    try {
      await engine.sync({ resources: ['catalogs'], full: true });
    } finally {
      stop();
    }
    const status = engine.status().find((s) => s.resource === 'catalogs')!;
    const expected = (await serviceSnapshot(svc.direct)).catalogs;
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['head-new-0', 'head-new-2']));
    expect(mirrorSnapshot(db.sqlite).catalogs).toEqual(expected);
    expect(status).toMatchObject({ incomplete: false, incompleteReason: null, removed: 0 });
  });

  it('records deleted after they were read: incomplete, nothing removed, then the next sync is exact', async () => {
    const db = files.fresh();
    const { client, drift } = svc.client();
    const catalogEngine = createSyncEngine({ db, client, drift, pageSize: 50, prefetch: false });
    const indexEngine = createSyncEngine({ db, client, drift, pageSize: 3, prefetch: false });
    await catalogEngine.sync({ resources: ['catalogs'] });
    await indexEngine.sync({ resources: ['indices'] });
    const before = mirrorSnapshot(db.sqlite);

    // The second catalog record and the second index go after their first page was read: a
    // record of the next page moves onto the page already read and is on none.
    const goneRecord = catalogIdsInOrder(svc.sqlite)[1]!;
    const goneIndex = svc.sqlite
      .prepare(
        'SELECT id FROM indices WHERE org_id IS NULL OR org_id = ? ORDER BY seq LIMIT 1 OFFSET 1',
      )
      .pluck()
      .get(DEMO.orgId) as string;
    const stops = [
      onceBeforePage('/v0/catalogs/search', 50, () =>
        deleteCatalogRecords(svc.sqlite, [goneRecord]),
      ),
      onceBeforePage('/v0/indices', 3, () =>
        svc.sqlite.prepare('DELETE FROM indices WHERE id = ?').run(goneIndex),
      ),
    ];
    try {
      await catalogEngine.sync({ resources: ['catalogs'], full: true });
      await indexEngine.sync({ resources: ['indices'], full: true });
    } finally {
      for (const stop of stops) stop();
    }
    const after = mirrorSnapshot(db.sqlite);
    for (const resource of ['catalogs', 'indices'] as const) {
      const s = catalogEngine.status().find((x) => x.resource === resource)!;
      // Nothing the mirror held was removed, and what it said is a reason, not a count alone.
      expect(s, resource).toMatchObject({ incomplete: true, removed: 0 });
      expect(s.incompleteReason, resource).toMatch(/changed while/);
      expect(Object.keys(after[resource]).sort(), resource).toEqual(
        Object.keys(before[resource]).sort(),
      );
    }

    // Nothing moves now: the next pass is complete and equal to the service.
    await catalogEngine.sync({ resources: ['catalogs'] });
    await indexEngine.sync({ resources: ['indices'] });
    const expected = await serviceSnapshot(svc.direct);
    const mirrored = mirrorSnapshot(db.sqlite);
    expect(mirrored.catalogs[goneRecord]).toBeUndefined();
    expect(mirrored.indices[goneIndex]).toBeUndefined();
    expect(mirrored.catalogs).toEqual(expected.catalogs);
    expect(mirrored.indices).toEqual(expected.indices);
    expect(catalogEngine.status().every((s) => !s.incomplete)).toBe(true);
  });
});

/**
 * A record timestamped in the future (an AOI updated "2099", a catalog record whose `updated` is
 * 2099), through the misbehaving proxy in front of the reference service. The record is kept as
 * it came, but the incremental marker must not jump to 2099: it is bounded by the pass's own
 * start (on the service's clock), so the next incremental pass still finds what is new.
 */
import { COMPACT_LAYOUT } from '@eo/catalog-store';
import { rewriteJson } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertNewestCatalogRecords,
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';
import { createAois } from './service';

const FUTURE = '2099-01-01T00:00:00Z';

let svc: MisbehavingService;
const files = mirrorFiles('future-timestamps');
beforeAll(async () => {
  svc = await startMisbehavingService();
});
afterAll(async () => {
  files.close();
  await svc.close();
});

const ids = (rows: unknown[]) => rows as string[];

describe('a record timestamped in the future', () => {
  it('is kept as it came; the next incremental pass still finds new AOIs and catalog records', async () => {
    const [rogueAoi] = ids(
      svc.sqlite.prepare('SELECT id FROM aois ORDER BY seq LIMIT 1').pluck().all(),
    );
    const [rogueRecord] = ids(
      svc.sqlite.prepare('SELECT id FROM catalog_records ORDER BY seq LIMIT 1').pluck().all(),
    );
    svc.proxy.use(
      'aoi from 2099',
      (r) => r.path === '/v0/aois',
      rewriteJson((json) => {
        for (const a of json.aois as Array<Record<string, unknown>>)
          if (a.aoi_id === rogueAoi) a.updated_at = FUTURE;
        return json;
      }),
    );
    svc.proxy.use(
      'record from 2099',
      (r) => r.path === '/v0/catalogs/search',
      rewriteJson((json) => {
        for (const c of json.catalogs as Array<{
          id: string;
          details: { properties: Record<string, unknown> };
        }>)
          if (c.id === rogueRecord) c.details.properties.updated = FUTURE;
        return json;
      }),
    );
    const db = files.fresh();
    const { client, drift } = svc.client();
    const engine = createSyncEngine({ db, client, drift, pageSize: 100 });
    try {
      await engine.sync({ resources: ['aois', 'catalogs'] });

      // New on the service after that pass: an AOI, a catalog record.
      const before = new Set(ids(svc.sqlite.prepare('SELECT id FROM aois').pluck().all()));
      await createAois(svc.direct, 1);
      await svc.service.server.app.ctx.worker.drain();
      const newAoi = ids(svc.sqlite.prepare('SELECT id FROM aois').pluck().all()).find(
        (id) => !before.has(id),
      )!;
      const [newRecord] = insertNewestCatalogRecords(svc.sqlite, 1, 'after-2099');

      await engine.sync({ resources: ['aois', 'catalogs'] });
      for (const resource of ['aois', 'catalogs'])
        expect(engine.status().find((s) => s.resource === resource)).toMatchObject({
          passMode: 'incremental',
          incomplete: false,
        });
      const aoi = (id: string) =>
        db.sqlite.prepare('SELECT json FROM mirror_aois WHERE aoi_id = ?').pluck().get(id) as
          string | undefined;
      const record = (id: string) =>
        db.sqlite
          .prepare(`SELECT ${COMPACT_LAYOUT.recordSql} FROM catalog_records c WHERE c.id = ?`)
          .pluck()
          .get(id) as string | undefined;
      expect(aoi(newAoi), 'the AOI created after the first pass').toBeDefined();
      expect(record(newRecord!), 'the record added after the first pass').toBeDefined();
      // The future timestamps stay on their records, as received.
      expect(JSON.parse(aoi(rogueAoi!)!).updated_at).toBe(FUTURE);
      expect(JSON.parse(record(rogueRecord!)!).details.properties.updated).toBe(FUTURE);
    } finally {
      svc.proxy.clear();
    }
  });
});

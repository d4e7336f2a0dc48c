/**
 * A service that cuts its 200 bodies short (a complete HTTP message whose JSON ends early: a
 * gateway's full buffer, a broken cache) and one that sends nonsense totals, through the
 * misbehaving proxy in front of the reference service. A cut body is a transient fault, retried
 * like the others within the client's bounded attempts, so a sync goes through it; a negative
 * total, or one the page itself contradicts, is read as unknown and reported, never as the end of
 * the list (which would sweep every record after the first page).
 */
import { rewriteJson, truncated } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';

let svc: MisbehavingService;
const files = mirrorFiles('cut-bodies');
beforeAll(async () => {
  svc = await startMisbehavingService();
});
afterAll(async () => {
  files.close();
  await svc.close();
});

describe('200 bodies cut short', () => {
  it('every other catalog page arrives cut: retried, the sync completes equal to the service', async () => {
    let n = 0;
    const stop = svc.proxy.use(
      'cut every other page',
      (r) => r.path === '/v0/catalogs/search',
      async ({ forward }) => {
        const up = await forward();
        return n++ % 2 === 0 ? truncated(up, 0.6) : up;
      },
    );
    const db = files.fresh();
    const { client, drift } = svc.client({
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    const engine = createSyncEngine({ db, client, drift, pageSize: 50, prefetch: false });
    try {
      await engine.sync({ resources: ['catalogs'] });
    } finally {
      stop();
    }
    expect(svc.proxy.log.filter((l) => l.rule === 'cut every other page').length).toBeGreaterThan(
      6,
    );
    expect(mirrorSnapshot(db.sqlite).catalogs).toEqual(
      (await serviceSnapshot(svc.direct)).catalogs,
    );
    expect(engine.status()[0]).toMatchObject({ incomplete: false, lastError: null });
  });
});

describe('nonsense totals', () => {
  it('a negative total, or one smaller than the page: read as unknown and reported; nothing swept', async () => {
    const db = files.fresh();
    const { client, drift } = svc.client();
    const engine = createSyncEngine({ db, client, drift, pageSize: 2, prefetch: false });
    await engine.sync({ resources: ['orders', 'indices'] });
    const expected = await serviceSnapshot(svc.direct);
    const listed = () => {
      const m = mirrorSnapshot(db.sqlite);
      return { orders: m.orders, indices: m.indices };
    };
    expect(listed()).toEqual({ orders: expected.orders, indices: expected.indices });

    const stops = [
      svc.proxy.use(
        'negative total',
        (r) => r.path === '/v0/orders',
        rewriteJson((json) => ({
          ...json,
          pagination: { ...(json.pagination as object), total: -1 },
        })),
      ),
      svc.proxy.use(
        'total smaller than the page',
        (r) => r.path === '/v0/indices',
        rewriteJson((json) => ({
          ...json,
          pagination: { ...(json.pagination as object), total: 1 },
        })),
      ),
    ];
    try {
      await engine.sync({ resources: ['orders', 'indices'], full: true });
    } finally {
      for (const stop of stops) stop();
    }
    // Paged to the end by the short page: nothing removed.
    expect(listed()).toEqual({ orders: expected.orders, indices: expected.indices });
    for (const resource of ['orders', 'indices'] as const)
      expect(
        engine.status().find((s) => s.resource === resource),
        resource,
      ).toMatchObject({
        removed: 0,
        incomplete: false,
      });
    const samples = engine.driftSamples().filter((s) => s.path === 'pagination.total');
    // Each page that carried one says so.
    expect([...new Set(samples.map((s) => s.resource))].sort()).toEqual(['indices', 'orders']);
    expect(samples.map((s) => s.message).join('\n')).toMatch(/read as unknown/);
  });
});

/**
 * Ids whose case or surrounding whitespace changes between pages (through the misbehaving proxy
 * in front of the reference service). Ids are compared exactly, but an id that differs from a
 * known one only by case or whitespace is the same record: reported as drift, never stored
 * twice, never removed and replaced by its variant. The record keeps the spelling the mirror
 * knew first.
 */
import { offsetOf, rewriteJson, type ProxiedRequest } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSnapshot, serviceSnapshot, type Snapshot } from '../../__tests__/mirror-snapshot';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import type { ResourceName } from '../../mirror/writers';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';
import { createAois } from './service';

let svc: MisbehavingService;
const files = mirrorFiles('id-variants');
beforeAll(async () => {
  svc = await startMisbehavingService();
  await createAois(svc.direct, 2); // four AOIs: two pages of two
  await svc.service.server.app.ctx.worker.drain();
});
afterAll(async () => {
  files.close();
  await svc.close();
});

const LISTS: Array<{
  resource: ResourceName;
  path: string;
  key: string;
  id: string;
  pageSize: number;
}> = [
  { resource: 'orders', path: '/v0/orders', key: 'orders', id: 'id', pageSize: 2 },
  { resource: 'orderItems', path: '/v0/order-items', key: 'order_items', id: 'id', pageSize: 2 },
  { resource: 'aois', path: '/v0/aois', key: 'aois', id: 'aoi_id', pageSize: 2 },
  { resource: 'indices', path: '/v0/indices', key: 'indices', id: 'id', pageSize: 2 },
  { resource: 'catalogs', path: '/v0/catalogs/search', key: 'catalogs', id: 'id', pageSize: 50 },
];

/** A page of the walk of a whole list (not a by-id or changed-since check). */
const isWalk = (r: ProxiedRequest) =>
  r.method === 'GET' ? r.query.size <= 2 : Object.keys(r.json() as object).length <= 2;

const listed = (snapshot: Snapshot) =>
  Object.fromEntries(LISTS.map(({ resource }) => [resource, snapshot[resource]]));

function enginesOn(db: ReturnType<typeof files.fresh>) {
  const { client, drift } = svc.client();
  return LISTS.map(({ resource, pageSize }) => ({
    resource,
    engine: createSyncEngine({ db, client, drift, pageSize, prefetch: false }),
  }));
}

describe('ids that change case or gain whitespace between pages', () => {
  it('a known record under a variant id: one record, its known id, nothing removed, drift reported', async () => {
    const db = files.fresh();
    const engines = enginesOn(db);
    for (const { resource, engine } of engines) await engine.sync({ resources: [resource] });
    const expected = listed(await serviceSnapshot(svc.direct));
    expect(listed(mirrorSnapshot(db.sqlite))).toEqual(expected);

    // The second page of every list: ids upper-cased, the first one also padded with spaces.
    const stops = LISTS.map(({ path, key, id, pageSize }) =>
      svc.proxy.use(
        `variants on ${path}`,
        (r) => r.path === path && offsetOf(r) === pageSize && isWalk(r),
        rewriteJson((json) => {
          (json[key] as Array<Record<string, unknown>>).forEach((item, i) => {
            const upper = String(item[id]).toUpperCase();
            item[id] = i === 0 ? `  ${upper} ` : upper;
          });
          return json;
        }),
      ),
    );
    try {
      for (const { resource, engine } of engines)
        await engine.sync({ resources: [resource], full: true });
    } finally {
      for (const stop of stops) stop();
    }
    expect(listed(mirrorSnapshot(db.sqlite))).toEqual(expected);
    const status = engines[0]!.engine.status();
    const samples = engines[0]!.engine.driftSamples();
    for (const { resource } of LISTS) {
      expect(
        status.find((s) => s.resource === resource),
        resource,
      ).toMatchObject({
        incomplete: false,
        removed: 0,
      });
      expect(
        samples.some(
          (s) =>
            s.resource === resource && /only by case or surrounding whitespace/.test(s.message),
        ),
        resource,
      ).toBe(true);
    }
  });

  it('one pass lists a record twice under two spellings: stored once, under the first', async () => {
    const db = files.fresh();
    const engines = enginesOn(db);
    // The last page of every list also carries the first page's first record, upper-cased.
    const stops = LISTS.map(({ path, key, id }) => {
      let first: Record<string, unknown> | undefined;
      return svc.proxy.use(
        `twice on ${path}`,
        (r) => r.path === path && isWalk(r),
        rewriteJson((json, request) => {
          const items = json[key] as Array<Record<string, unknown>>;
          const { total } = json.pagination as { total: number };
          const offset = offsetOf(request);
          if (offset === 0) first = items[0];
          else if (first && offset + items.length >= total)
            items.push({ ...first, [id]: String(first[id]).toUpperCase() });
          return json;
        }),
      );
    });
    try {
      for (const { resource, engine } of engines) await engine.sync({ resources: [resource] });
    } finally {
      for (const stop of stops) stop();
    }
    expect(listed(mirrorSnapshot(db.sqlite))).toEqual(listed(await serviceSnapshot(svc.direct)));
    for (const { resource } of LISTS)
      expect(
        engines[0]!.engine.status().find((s) => s.resource === resource),
        resource,
      ).toMatchObject({ incomplete: false });
  });
});

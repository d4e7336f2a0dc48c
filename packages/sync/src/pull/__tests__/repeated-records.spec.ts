/**
 * A service whose pages repeat one record and skip another (through the misbehaving proxy in
 * front of the reference service): the second page of each list opens with the first page's
 * last record instead of its own first one. The pages hold as many records as the service
 * counts, one of them twice and one on no page. Nothing the service still lists may be removed:
 * where the service can be asked by id the pass finds the skipped record and completes with the
 * mirror equal to the service; where it cannot (orders: no id filter in the spec) the pass is
 * incomplete and removes nothing.
 */
import { offsetOf, rewriteJson } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import {
  startMisbehavingService,
  type MisbehavingService,
} from '../../__tests__/misbehaving-service';
import type { ResourceName } from '../../mirror/writers';
import { createSyncEngine } from '../engine';
import { mirrorFiles } from '../../db/__tests__/temp';
import { createAois } from './service';

let svc: MisbehavingService;
const files = mirrorFiles('repeated-records');
beforeAll(async () => {
  svc = await startMisbehavingService();
  await createAois(svc.direct, 2); // four AOIs: two pages of two
  await svc.service.server.app.ctx.worker.drain(); // their processing done: nothing changes
});
afterAll(async () => {
  files.close();
  await svc.close();
});

const LISTS: Array<{ resource: ResourceName; path: string; key: string; pageSize: number }> = [
  { resource: 'orders', path: '/v0/orders', key: 'orders', pageSize: 2 },
  { resource: 'orderItems', path: '/v0/order-items', key: 'order_items', pageSize: 2 },
  { resource: 'aois', path: '/v0/aois', key: 'aois', pageSize: 2 },
  { resource: 'indices', path: '/v0/indices', key: 'indices', pageSize: 2 },
  { resource: 'catalogs', path: '/v0/catalogs/search', key: 'catalogs', pageSize: 50 },
];

/** The second page of every list opens with the first page's last record, not its own first. */
function repeatAndSkip(): Array<() => void> {
  return LISTS.map(({ path, key, pageSize }) => {
    let lastOfFirst: unknown;
    return svc.proxy.use(
      `repeat on ${path}`,
      (r) => r.path === path && (offsetOf(r) === 0 || offsetOf(r) === pageSize),
      rewriteJson((json, request) => {
        const items = json[key] as unknown[];
        // Only the walk of the whole list (not a by-id or changed-since check) is changed.
        if (
          request.query.size > 2 ||
          (request.method === 'POST' && Object.keys(request.json() as object).length > 2)
        )
          return json;
        if (offsetOf(request) === 0) lastOfFirst = items.at(-1);
        else if (lastOfFirst !== undefined && items.length > 0) items[0] = lastOfFirst;
        return json;
      }),
    );
  });
}

describe('pages that repeat one record and skip another', () => {
  it('nothing the service lists is removed; lists it can be asked by id complete equal to it', async () => {
    const db = files.fresh();
    const { client, drift } = svc.client();
    const engines = LISTS.map(({ resource, pageSize }) => ({
      resource,
      engine: createSyncEngine({ db, client, drift, pageSize, prefetch: false }),
    }));
    for (const { resource, engine } of engines) await engine.sync({ resources: [resource] });
    const expected = await serviceSnapshot(svc.direct);
    const listed = (snapshot: typeof expected) =>
      Object.fromEntries(LISTS.map(({ resource }) => [resource, snapshot[resource]]));
    expect(listed(mirrorSnapshot(db.sqlite))).toEqual(listed(expected));

    const stops = repeatAndSkip();
    try {
      for (const { resource, engine } of engines)
        await engine.sync({ resources: [resource], full: true });
    } finally {
      for (const stop of stops) stop();
    }
    const mirrored = mirrorSnapshot(db.sqlite);
    const status = engines[0]!.engine.status();
    for (const { resource } of LISTS) {
      const s = status.find((x) => x.resource === resource)!;
      // Never removed: what the service still lists.
      expect(Object.keys(mirrored[resource]).sort(), resource).toEqual(
        Object.keys(expected[resource]).sort(),
      );
      expect(s.removed, resource).toBe(0);
      if (resource === 'orders') {
        expect(s.incomplete).toBe(true);
        expect(s.incompleteReason).toMatch(
          /orders: 2 of the 3 records .* 1 of them more than once/,
        );
      } else {
        expect(s, resource).toMatchObject({ incomplete: false, incompleteReason: null });
        expect(mirrored[resource], resource).toEqual(expected[resource]);
      }
    }
  });
});

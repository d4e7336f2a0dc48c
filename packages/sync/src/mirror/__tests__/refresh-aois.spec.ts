/**
 * AOIs followed until final (issue 17, item 4), against the real reference service whose worker
 * the test steps by hand: an AOI created `started` is re-read as the service produces its scene
 * assets (`running`, then `failed` here: its scene does not touch the area), with the assets and
 * their reasons; a final AOI is not asked for again.
 */
import type { EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../outbox/outbox';
import {
  aoiInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { makeOutboxMirror } from '../outbox-mirror';
import { unfinishedAois } from '../refresh-aois';
import { refreshCreated } from '../refresh-created';

let svc: TestService;
let client: EoClient;
beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());

/** An aurora-1 scene whose footprint is far from the area's: its asset cannot be produced. */
async function farScene(area: [number, number]): Promise<string> {
  const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 100 });
  const far = features.find((f) => {
    if (f.properties?.['rd:sat_id'] !== 'sat-aurora-1' || !f.bbox) return false;
    const [w, s, e, n] = f.bbox.map(Number) as [number, number, number, number];
    return area[0] < w - 1 || area[0] > e + 1 || area[1] < s - 1 || area[1] > n + 1;
  });
  if (!far) throw new Error('the seed has no far sat-aurora-1 scene');
  return far.id;
}

describe('refreshCreated follows AOIs', () => {
  it('from started to failed, with its assets and why they failed', async () => {
    const local = tempDatabase();
    try {
      const input = await aoiInput(client, 'Followed AOI');
      const corner = input.geometry.coordinates[0]![0]! as [number, number];
      const scene = await farScene(corner);
      const outbox = createOutbox({
        db: local.sqlite,
        client,
        mirror: makeOutboxMirror(local.sqlite),
      });
      outbox.enqueue('aoi', { ...input, item_ids: [scene] });
      expect(await outbox.flush()).toMatchObject({ sent: 1, failed: 0 });
      const aoi = () =>
        JSON.parse(
          local.sqlite.prepare('SELECT json FROM mirror_aois').pluck().get() as string,
        ) as { status: string; progress: number };
      const assets = () =>
        (local.sqlite.prepare('SELECT json FROM mirror_assets').pluck().all() as string[]).map(
          (j) => JSON.parse(j) as { status: string; description?: string },
        );
      expect(aoi()).toMatchObject({ status: 'started', progress: 0 });
      expect(unfinishedAois(local.sqlite)).toHaveLength(1);

      // The service has not moved: read again, nothing stored.
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({
        checked: 1,
        updated: 0,
        kinds: [],
      });

      // One step of the service's worker: the AOI runs, its scene asset with it.
      svc.server.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({
        updated: 1,
        kinds: ['aois'],
      });
      expect(aoi().status).toBe('running');
      expect(assets().map((a) => a.status)).toEqual(['running']);

      // To the end: failed, and the asset says why (the service's own words).
      svc.server.app.ctx.worker.drain();
      await refreshCreated({ sqlite: local.sqlite, client });
      expect(aoi()).toMatchObject({ status: 'failed', progress: 100 });
      expect(assets()).toEqual([
        expect.objectContaining({
          status: 'failed',
          description: `Scene ${scene} does not intersect the AOI`,
        }),
      ]);
      // Final: not asked for again.
      expect(unfinishedAois(local.sqlite)).toEqual([]);
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({ checked: 0 });
    } finally {
      local.remove();
    }
  });
});

/**
 * Index maps of AOIs for the renderer (issue 15): an AOI and an NDVI visualization created in
 * the app, followed to success, and a sync keeps its index PNGs; with the service stopped,
 * `aois.indexMaps` lists them with their legend and the picture path (`eo-quicklook:` /
 * `/api/quicklooks`, variant `index-<date>`) answers their bytes from the mirror. Against the
 * real reference service on 127.0.0.1.
 */
import { createEoClient } from '@eo/api-client';
import { PNG_SIGNATURE } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexMapView } from '../../shared/contract';
import { aoiInput, auroraScene } from './create-inputs';
import { connectTo, startBackend, startService, syncToEnd, type TestBackend } from './harness';

let t: TestBackend;
let aoiId: string;
let maps: IndexMapView[];

beforeAll(async () => {
  const service = await startService(60);
  t = await connectTo(startBackend({ settings: { imagery: 'thumbnails' } }), service);
  const scene = await auroraScene(createEoClient({ baseUrl: service.url, apiKey: service.key }));
  const aoi = await t.call('outbox.enqueue', {
    kind: 'aoi',
    input: aoiInput('Index-mapped field', scene.id, scene.box),
  });
  await t.call('outbox.enqueue', {
    kind: 'visualization',
    input: {
      aoi_id: `local:${aoi.id}`,
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: [`local:${aoi.id}#scenes`],
    },
  });
  expect(await t.call('outbox.flush')).toMatchObject({ sent: 2, failed: 0 });
  service.server.app.ctx.worker.drain();
  await t.call('created.refresh');
  expect(await t.call('visualizations.list')).toEqual([
    expect.objectContaining({ status: 'success' }),
  ]);
  const status = await syncToEnd(t, 'the sync with index maps');
  expect(status.imagery!.indexMaps).toBeGreaterThan(0);
  // Offline from here: everything comes from the mirror.
  await service.close();
  aoiId = (await t.call('aois.list', {}))[0]!.aoi_id;
  maps = await t.call('aois.indexMaps', { aoiId });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('index maps of AOIs, offline', () => {
  it('lists the AOI’s maps, newest first, with bounds inside the AOI’s box, colormap and rescale', async () => {
    expect(maps.length).toBeGreaterThan(0);
    const dates = maps.map((m) => m.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const m = maps[0]!;
    expect(m.variant).toBe(`index-${m.date}`);
    expect(m.legend).toMatchObject({
      index_id: 'idx-ndvi-aurora',
      colormap: 'RdYlGn',
      rescale: [-1, 1],
    });
    const [w, s, e, n] = m.legend.bounds;
    expect(w).toBeLessThan(e);
    expect(s).toBeLessThan(n);
    expect(await t.call('aois.indexMaps', { aoiId: 'no-such-aoi' })).toEqual([]);
  });

  it('the picture path answers the stored PNG; another date 404; a bad variant 400', () => {
    const m = maps[0]!;
    const ok = t.backend.quicklook({ recordId: m.visualizationId, variant: m.variant });
    expect(ok.status).toBe(200);
    if (ok.status === 200)
      expect(Buffer.from(ok.bytes.subarray(0, 8)).equals(Buffer.from(PNG_SIGNATURE))).toBe(true);
    expect(
      t.backend.quicklook({ recordId: m.visualizationId, variant: 'index-1999-01-01' }),
    ).toEqual({ status: 404 });
    for (const variant of ['index-2024', 'index:2024-01-01', 'index-2024-01-01/x'])
      expect(t.backend.quicklook({ recordId: m.visualizationId, variant }).status).toBe(400);
  });
});

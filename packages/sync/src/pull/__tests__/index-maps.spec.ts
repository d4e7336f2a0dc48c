/**
 * Index maps of mirrored visualizations against the real reference service on 127.0.0.1
 * (through a recording proxy): the AOI and its visualization are created through the mirror's
 * outbox, the worker completes them, and the imagery pass stores the index PNG of each date with
 * its legend from the headers; nothing fetched twice; a bad file fetched again; the budget; a
 * service without the route (404/405) counted as unavailable, the pass unharmed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient, type EoClient } from '@eo/api-client';
import { geometryBbox, IndexMapInfo, VISUALIZATION_PNG_HEADERS, type Geometry } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFaultProxy,
  type Fault,
  type FaultProxy,
  type ProxyRequest,
} from '../../__tests__/fault-proxy';
import { tempDir } from '../../db/__tests__/temp';
import { readPngHeader } from '../../mirror/png-header';
import { startService, type TestService } from '../../outbox/__tests__/service';
import { mirrorWithIndexedAoi } from './index-map-fixture';
import type { ImagerySyncOptions } from '../imagery';

let service: TestService;
let proxy: FaultProxy;
const seen: ProxyRequest[] = [];
/** What the proxy answers index PNG requests with (other requests always pass). */
let pngFault: Fault = 'pass';
const tmp = tempDir('index-maps');
let mirrorCount = 0;

const isPng = (r: ProxyRequest) => /\/visualizations\/[^/]+\/png$/.test(r.url);

beforeAll(async () => {
  service = await startService();
  proxy = await startFaultProxy(service.url, (req) => {
    seen.push(req);
    return isPng(req) ? pngFault : 'pass';
  });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

const client = (): EoClient =>
  createEoClient({ baseUrl: proxy.url, apiKey: service.key, retry: { maxAttempts: 1 } });

const options = (o: Partial<ImagerySyncOptions> = {}): ImagerySyncOptions => ({
  serviceUrl: proxy.url,
  budgetBytes: 1024 ** 3,
  ...o,
});

const mirrorWithVisualization = () =>
  mirrorWithIndexedAoi(path.join(tmp.dir, `mirror-${mirrorCount++}.db`), client(), service);

/** Index PNG requests sent while `body` runs. */
async function pngRequests(body: () => Promise<unknown>): Promise<ProxyRequest[]> {
  const before = seen.length;
  await body();
  return seen.slice(before).filter(isPng);
}

describe('index maps of mirrored visualizations', () => {
  it('stores each date’s PNG with the legend of its headers, once', async () => {
    const { mirror, aoiId, visId } = await mirrorWithVisualization();
    try {
      let report;
      const asked = await pngRequests(async () => {
        report = await mirror.imagery.sync(options({ client: client() }));
      });
      const maps = report!.indexMaps!;
      expect(maps.fetched).toBeGreaterThanOrEqual(1);
      expect(maps).toMatchObject({ wanted: maps.fetched, kept: 0, failed: 0, unavailable: 0 });
      // Sent to the service's origin with the key (an API endpoint, unlike the signed quicklooks).
      expect(asked).toHaveLength(maps.fetched);
      for (const r of asked) expect(r.headers.authorization).toBe(service.key);
      expect(JSON.parse(asked[0]!.body)).toMatchObject({
        index_id: 'idx-ndvi-aurora',
        visualization_mode: 'theoretical',
      });
      expect(JSON.parse(asked[0]!.body).date).toMatch(/^\d{4}_\d{2}_\d{2}$/);

      const stored = mirror.imagery.indexMaps(aoiId);
      expect(stored).toHaveLength(maps.fetched);
      const first = stored[0]!;
      expect(first.visualizationId).toBe(visId);
      const bytes = mirror.imagery.get(visId, `index:${first.date}`)!;
      expect(readPngHeader(bytes)).not.toBeNull();
      expect(first.bytes).toBe(bytes.length);
      expect(mirror.imagery.counts().indexMap).toBe(maps.fetched);

      // The same bytes and legend as the service answers directly.
      const direct = await fetch(`${service.url}/v0/aois/${aoiId}/visualizations/${visId}/png`, {
        method: 'POST',
        headers: { authorization: service.key, 'content-type': 'application/json' },
        body: JSON.stringify({
          index_id: 'idx-ndvi-aurora',
          date: first.date.replaceAll('-', '_'),
          visualization_mode: 'theoretical',
        }),
      });
      expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
      const legend = IndexMapInfo.parse(JSON.parse(first.legendJson));
      expect(legend.bounds.join(',')).toBe(direct.headers.get(VISUALIZATION_PNG_HEADERS.bounds));
      expect(legend.colormap).toBe(direct.headers.get(VISUALIZATION_PNG_HEADERS.colormap));
      expect(legend.rescale).toEqual([-1, 1]);
      expect(legend).toMatchObject({ index_id: 'idx-ndvi-aurora', index_name: expect.any(String) });

      // A second run asks for nothing; a bad file is found and fetched again.
      const again = await pngRequests(() => mirror.imagery.sync(options({ client: client() })));
      expect(again).toEqual([]);
      const file = fs
        .readdirSync(`${mirror.file}.imagery`)
        .find((f) => f.endsWith(`-index_${first.date}.png`))!;
      fs.truncateSync(path.join(`${mirror.file}.imagery`, file), 10);
      const repaired = await mirror.imagery.sync(options({ client: client() }));
      expect(repaired.indexMaps).toMatchObject({ bad: 1, fetched: 1 });
      expect(mirror.imagery.get(visId, `index:${first.date}`)!.equals(bytes)).toBe(true);
    } finally {
      mirror.close();
    }
  });

  it('without legend headers (the real service draws its legend in): the AOI’s bbox and the index’s', async () => {
    const { mirror, aoiId } = await mirrorWithVisualization();
    // The same answers with the x-eo-* headers taken off, as the provider's service sends them.
    const bare: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const headers = new Headers(res.headers);
      for (const h of Object.values(VISUALIZATION_PNG_HEADERS)) headers.delete(h);
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    };
    try {
      const c = createEoClient({ baseUrl: proxy.url, apiKey: service.key, fetch: bare });
      const report = await mirror.imagery.sync(options({ client: c }));
      expect(report.indexMaps!.fetched).toBeGreaterThan(0);
      const [first] = mirror.imagery.indexMaps(aoiId);
      const legend = IndexMapInfo.parse(JSON.parse(first!.legendJson));
      const aoi = mirror.records
        .aois<{ aoi_id: string; geometry: Geometry }>()
        .find((a) => a.aoi_id === aoiId);
      expect(legend.bounds).toEqual(geometryBbox(aoi!.geometry));
      expect(legend).toMatchObject({ rescale: [-1, 1], colormap: 'RdYlGn' });
    } finally {
      mirror.close();
    }
  });

  it('keeps within the byte budget', async () => {
    const { mirror, aoiId } = await mirrorWithVisualization();
    try {
      const report = await mirror.imagery.sync(options({ client: client(), budgetBytes: 100 }));
      expect(report.indexMaps).toMatchObject({ fetched: 0, failed: 0 });
      expect(report.indexMaps!.overBudget).toBe(report.indexMaps!.wanted);
      expect(mirror.imagery.indexMaps(aoiId)).toEqual([]);
      expect(mirror.imagery.counts().bytes).toBe(0);
    } finally {
      mirror.close();
    }
  });

  it.each([404, 405])(
    'a service without the route (%i) is counted as unavailable, never a failure',
    async (status) => {
      const { mirror, aoiId } = await mirrorWithVisualization();
      pngFault = { status };
      try {
        const report = await mirror.sync(client(), {
          resources: ['aois'],
          imagery: options(),
        });
        const maps = report.imagery!.indexMaps!;
        expect(maps.wanted).toBeGreaterThan(0);
        expect(maps).toMatchObject({ unavailable: maps.wanted, fetched: 0, failed: 0 });
        expect(maps.lastError).toBeNull();
        expect(mirror.imagery.indexMaps(aoiId)).toEqual([]);
      } finally {
        pngFault = 'pass';
        mirror.close();
      }
    },
  );
});

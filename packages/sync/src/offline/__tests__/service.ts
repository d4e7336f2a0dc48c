/**
 * The reference service for the offline tests: its worker running (downloads finish on their
 * own), signed URLs on another origin (`assets`, a relay to the same service: where the key must
 * never go), and a relay in front of the API (`relay`) recording where every request went.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import {
  insertSquareScene,
  seedDemo,
  startServer,
  type RunningServer,
} from '@eo/reference-service';
import { startRelay, type Relay } from './relay';

export interface OfflineService {
  readonly server: RunningServer;
  readonly key: string;
  readonly relay: Relay;
  readonly assets: Relay;
  /**
   * Catalog records of the demo organisation made by an archive order of `SITE_SCENE` (2 km: its
   * COG renders in seconds): the scenes the tests take offline.
   */
  readonly catalogIds: readonly string[];
  /** Downloads the service holds. */
  downloads(): number;
  close(): Promise<void>;
}

/** A 2 km Aurora scene near Bologna (3 m pixels: 2 x 2 tiles of 512 px at full resolution). */
export const SITE_SCENE = {
  id: 'OFFLINE_AUR1_SITE',
  lon: 11.35,
  lat: 44.5,
  km: 2,
  datetime: '2024-06-20T10:30:00Z',
  cloudCover: 10,
} as const;

const square = (lon: number, lat: number, d: number) => ({
  type: 'Polygon' as const,
  coordinates: [
    [
      [lon - d, lat - d],
      [lon + d, lat - d],
      [lon + d, lat + d],
      [lon - d, lat + d],
      [lon - d, lat - d],
    ] as [number, number][],
  ],
});

/** Orders `SITE_SCENE` (archive items) and waits for their catalog records (bounded). */
async function orderSite(url: string, key: string, items: number): Promise<string[]> {
  const client = createEoClient({ baseUrl: url, apiKey: key });
  const order = await client.createOrder({
    order_items: Array.from({ length: items }, (_, k) => ({
      project_id: 'prj-demo-crops',
      name: `Offline site ${k}`,
      geometry: {
        type: 'FeatureCollection' as const,
        features: [
          { type: 'Feature' as const, geometry: square(SITE_SCENE.lon, SITE_SCENE.lat, 0.004) },
        ],
      },
      item_ids: [SITE_SCENE.id],
    })),
  });
  for (let tries = 0; tries < 600; tries++) {
    const { order_items } = await client.listOrderItems({ order_ids: [order.id] });
    const ids = order_items.flatMap((i) => (i.tasks ?? []).map((t) => t.catalog_id));
    if (ids.length === items && ids.every((id) => typeof id === 'string')) return ids as string[];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the archive order of the site scene was not fulfilled within 30 s');
}

export async function startOfflineService(): Promise<OfflineService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-offline-service-'));
  const assets = await startRelay();
  const server = await startServer({
    dataDir,
    logLevel: false,
    stepDelayMs: 0,
    workerTickMs: 5,
    assetOrigin: assets.url,
  });
  assets.target = server.url;
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 20 }).demoKey!;
  insertSquareScene(server.app.ctx.sqlite, SITE_SCENE);
  const catalogIds = await orderSite(server.url, key, 2);
  const relay = await startRelay(server.url);
  const { sqlite } = server.app.ctx;
  return {
    server,
    key,
    relay,
    assets,
    catalogIds,
    downloads: () => sqlite.prepare('SELECT count(*) FROM downloads').pluck().get() as number,
    async close() {
      await relay.close();
      await assets.close();
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

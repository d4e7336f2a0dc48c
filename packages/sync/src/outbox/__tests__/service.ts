/**
 * Test helpers: the real reference service on 127.0.0.1 (fresh SQLite file, demo org seeded with
 * a few archive scenes), a local database in a temp folder, and valid inputs for every kind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient, type EoClient } from '@eo/api-client';
import { seedDemo, startServer, type RunningServer } from '@eo/reference-service';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import type { OutboxInput } from '../kinds';

export interface TestService {
  readonly url: string;
  readonly key: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export async function startService(): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-outbox-svc-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 60 }).demoKey!;
  return {
    url: server.url,
    key,
    server,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A client with short backoff so fault tests stay in seconds. */
export function testClient(url: string, key: string): EoClient {
  return createEoClient({
    baseUrl: url,
    apiKey: key,
    timeoutMs: 5_000,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  });
}

export function tempDatabase(): MirrorDatabase & { readonly dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-outbox-'));
  const local = openMirrorDatabase(path.join(dir, 'local.sqlite'));
  return {
    ...local,
    close: local.close,
    dir,
    remove() {
      local.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A tasking order over a field near Bologna, in the future. */
export function orderInput(name: string, projectId = 'prj-demo-crops'): OutboxInput<'order'> {
  const [w, s, e, n] = [11.3, 44.45, 11.425, 44.55];
  return {
    order_items: [
      {
        project_id: projectId,
        name,
        geometry: {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [w, s],
                    [e, s],
                    [e, n],
                    [w, n],
                    [w, s],
                  ],
                ],
              },
            },
          ],
        },
        start_date: '2030-06-01T00:00:00Z',
        end_date: '2030-06-30T00:00:00Z',
      },
    ],
  };
}

export function indexInput(name: string): OutboxInput<'index'> {
  return {
    name,
    description: 'NDVI with the red-edge band',
    rescale: [-1, 1],
    expression: '(B08 - B05) / (B08 + B05)',
    colormap: 'RdYlGn',
    satellite_id: 'sat-aurora-1',
    expression_type: 'index',
    type: 'custom',
  };
}

/** An AOI over the footprint of the first sat-aurora-1 archive scene. */
export async function aoiInput(client: EoClient, name: string): Promise<OutboxInput<'aoi'>> {
  const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 100 });
  const scene = features.find((f) => f.properties?.['rd:sat_id'] === 'sat-aurora-1');
  if (!scene?.bbox) throw new Error('the seed has no sat-aurora-1 scene');
  const [w, s, e, n] = scene.bbox.map(Number) as [number, number, number, number];
  const [cx, cy] = [(w + e) / 2, (s + n) / 2];
  const [dx, dy] = [(e - w) / 8, (n - s) / 8];
  return {
    name,
    description: 'Maize',
    satellite_id: 'sat-aurora-1',
    provider: 'aurora-archive',
    project_id: 'prj-demo-crops',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [cx - dx, cy - dy],
          [cx + dx, cy - dy],
          [cx + dx, cy + dy],
          [cx - dx, cy + dy],
          [cx - dx, cy - dy],
        ],
      ],
    },
    item_ids: [scene.id],
  };
}

/** Every order on the service, counted through GET /v0/orders pagination. */
export async function serviceOrders(
  client: EoClient,
): Promise<Array<{ id: string; name: string }>> {
  const out: Array<{ id: string; name: string }> = [];
  for await (const page of client.pages.orders({}, { pageSize: 100 })) {
    for (const o of page.items) out.push({ id: o.id, name: String(o.order_items?.[0]?.name) });
  }
  return out;
}

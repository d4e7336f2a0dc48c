/**
 * The real reference service on 127.0.0.1, seeded with the demo org (a few hundred catalog
 * records), three fulfilled orders (each adds a record) and custom indices; and a client whose
 * fetches are counted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient, type EoClient } from '@eo/api-client';
import { makeCatalogInserter, type CatalogRecordOut } from '@eo/catalog-store';
import { geometryBbox, type Geometry } from '@eo/domain';
import { DEMO } from '@eo/fixtures';
import { seedDemo, startServer, type RunningServer } from '@eo/reference-service';

export interface TestService {
  readonly url: string;
  readonly key: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

export async function startService(): Promise<TestService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-service-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 6000 }).demoKey!;
  const client = createEoClient({ baseUrl: server.url, apiKey: key });
  for (let i = 0; i < 3; i++) {
    await client.createIndex({
      name: `Field index ${i}`,
      description: 'NDVI with the red-edge band',
      rescale: [-1, 1],
      expression: '(B08 - B05) / (B08 + B05)',
      colormap: 'RdYlGn',
      satellite_id: 'sat-aurora-1',
      expression_type: 'index',
      type: 'custom',
    });
    await client.createOrder({ order_items: [taskingItem(`Survey ${i}`)] });
  }
  await createAois(client, 2);
  await server.app.ctx.worker.drain();
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

/**
 * Grows the service's catalog past what the demo seed makes (it stops at a few hundred records):
 * `count` copies of the demo org's records, each with new record and item ids, written with the
 * service's own catalog writer. For tests that need a sync to last a while.
 */
export function addCatalogCopies(service: TestService, count: number): void {
  const sqlite = service.server.app.ctx.sqlite;
  const originals = (
    sqlite
      .prepare('SELECT record_json FROM catalog_records WHERE org_id = ? ORDER BY id')
      .pluck()
      .all(DEMO.orgId) as string[]
  ).map((j) => JSON.parse(j) as CatalogRecordOut);
  const insert = makeCatalogInserter(sqlite);
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const base = originals[i % originals.length]!;
      const copy = Math.floor(i / originals.length);
      const id = `${base.id}-copy${copy}`;
      insert(
        {
          ...base,
          id,
          task_id: null,
          details: { ...base.details, id: `${base.details.id}-copy${copy}` },
        },
        { orgId: DEMO.orgId, orderId: null, orderItemId: null },
      );
    }
  })();
}

/** AOIs over the first archive scenes (an AOI needs the archive items it is made from). */
export async function createAois(client: EoClient, count: number): Promise<void> {
  let made = 0;
  for await (const page of client.pages.archiveItems('col-aurora-l2a', { limit: count })) {
    for (const feature of page.items) {
      const [w, s, e, n] = geometryBbox(feature.geometry as Geometry)!;
      const [cx, cy] = [(w + e) / 2, (s + n) / 2];
      const d = Math.min(e - w, n - s) / 8;
      await client.createAoi({
        name: `Field block ${made}`,
        description: 'mirror test',
        // Scene ids start with the satellite's code (AUR1_..., AUR2_...).
        satellite_id: String(feature.id).startsWith('AUR2') ? 'sat-aurora-2' : 'sat-aurora-1',
        provider: 'aurora-archive',
        project_id: 'prj-demo-crops',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [cx - d, cy - d],
              [cx + d, cy - d],
              [cx + d, cy + d],
              [cx - d, cy + d],
              [cx - d, cy - d],
            ],
          ],
        },
        item_ids: [String(feature.id)],
      });
      if (++made === count) return;
    }
  }
}

function taskingItem(name: string) {
  const [w, s, e, n] = [11.3, 44.45, 11.425, 44.55];
  return {
    project_id: 'prj-demo-crops',
    name,
    geometry: {
      type: 'FeatureCollection' as const,
      features: [
        {
          type: 'Feature' as const,
          geometry: {
            type: 'Polygon' as const,
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
  };
}

/** One request the client sent: endpoint path and the offset it asked for. */
export interface SentRequest {
  readonly path: string;
  readonly offset: number;
}

/** A client on the service whose requests are recorded (path + offset of each list page). */
export function countingClient(service: TestService): { client: EoClient; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const client = createEoClient({
    baseUrl: service.url,
    apiKey: service.key,
    retry: { maxAttempts: 1 },
    fetch: async (input, init) => {
      const url = new URL(input);
      let offset = Number(url.searchParams.get('offset') ?? 0);
      if (typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { offset?: number };
        offset = body.offset ?? 0;
      }
      sent.push({ path: url.pathname, offset });
      return fetch(input, init);
    },
  });
  return { client, sent };
}

/**
 * Satellites that do not match are refused when queued (issue 26, defect 3): an AOI on
 * sat-kestrel-1 built from an Aurora scene, and a visualization of a Kestrel index on an Aurora
 * AOI (queued or mirrored). The service refuses both on send; the mirror, synced from the real
 * reference service on 127.0.0.1, knows it offline. What the mirror does not know is queued.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EoApiError, type EoClient } from '@eo/api-client';
import type { CatalogRecordOut } from '@eo/catalog-store';
import { seedDemo, startServer, type RunningServer } from '@eo/reference-service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSyncEngine } from '../../pull/engine';
import { makeOfflineCatalogSearch } from '../../search/catalog';
import { OutboxInputError } from '../errors';
import type { OutboxInput } from '../kinds';
import { createOutbox } from '../outbox';
import { tempDatabase, testClient } from './service';

let server: RunningServer;
let dataDir: string;
let client: EoClient;
let local: ReturnType<typeof tempDatabase>;
let aurora: CatalogRecordOut;

function aoiOn(satellite: string, record: CatalogRecordOut): OutboxInput<'aoi'> {
  const [w, s, e, n] = record.details.bbox as [number, number, number, number];
  const [cx, cy, dx, dy] = [(w + e) / 2, (s + n) / 2, (e - w) / 10, (n - s) / 10];
  return {
    name: `Field on ${satellite}`,
    description: 'north slope',
    satellite_id: satellite,
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
    item_ids: [record.details.id],
  };
}

function refusal(fn: () => unknown): OutboxInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OutboxInputError) return e;
    throw e;
  }
  throw new Error('the outbox accepted it');
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-satellite-checks-'));
  server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 200 }).demoKey!;
  client = testClient(server.url, key);
  local = tempDatabase();
  await createSyncEngine({ db: local, client }).sync({
    resources: ['catalogs', 'indices'],
    reference: true,
  });
  const records = makeOfflineCatalogSearch(local.sqlite)({ limit: 1000 }).catalogs;
  aurora = records.find((r) => r.details.properties.platform === 'aurora-1')!;
  expect(aurora).toBeDefined();
});
afterAll(async () => {
  local.remove();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('satellites that do not match are refused when queued', () => {
  it('an AOI on Kestrel built from an Aurora scene, as the service would refuse it', async () => {
    const outbox = createOutbox({ db: local.sqlite });
    const wrong = aoiOn('sat-kestrel-1', aurora);
    const online = await client.createAoi(wrong).catch((e: unknown) => e);
    expect(online).toBeInstanceOf(EoApiError);

    const e = refusal(() => outbox.enqueue('aoi', wrong));
    expect(e.details).toEqual([
      {
        path: 'item_ids.0',
        // The catalog record's collection holds the scenes of both Aurora satellites.
        message: `scene "${aurora.details.id}" was taken by sat-aurora-1 or sat-aurora-2, not sat-kestrel-1: choose scenes of sat-kestrel-1, or the satellite sat-aurora-1 or sat-aurora-2`,
      },
    ]);
    expect(outbox.counts().queued).toBe(0);
    // On its own satellite it is queued.
    expect(outbox.enqueue('aoi', aoiOn('sat-aurora-1', aurora)).state).toBe('queued');
  });

  it('a visualization of a Kestrel index on an Aurora AOI, queued or mirrored', () => {
    const outbox = createOutbox({ db: local.sqlite });
    const aoi = outbox.enqueue('aoi', aoiOn('sat-aurora-1', aurora));
    const visualization = (index: string) => ({
      aoi_id: `local:${aoi.id}`,
      index_id: index,
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });
    const e = refusal(() => outbox.enqueue('visualization', visualization('idx-ndvi-kestrel')));
    expect(e.details).toEqual([
      {
        path: 'index_id',
        message:
          'index "idx-ndvi-kestrel" is for sat-kestrel-1; this AOI is on sat-aurora-1: choose an index of sat-aurora-1',
      },
    ]);
    expect(outbox.enqueue('visualization', visualization('idx-ndvi-aurora')).state).toBe('queued');
    // An index the mirror does not know is the service's to judge.
    expect(outbox.enqueue('visualization', visualization('idx-unknown')).state).toBe('queued');
  });

  it('a scene the mirror does not know is not guessed about', () => {
    const outbox = createOutbox({ db: local.sqlite });
    const unknown = { ...aoiOn('sat-kestrel-1', aurora), item_ids: ['KES1_not_mirrored'] };
    expect(outbox.enqueue('aoi', unknown).state).toBe('queued');
  });
});

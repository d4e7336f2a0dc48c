/**
 * `local:<aoi>#scenes`: a queued visualization's source assets follow the service profile's asset
 * types (the provider's service never sends `scene`), and while the AOI has none yet the entry
 * waits (queued, with a message saying so) instead of failing. Against a small HTTP service on
 * 127.0.0.1 that answers as the provider's document does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEoClient, type EoClient } from '@eo/api-client';
import { buildAoi, buildAsset, buildVisualization } from '@eo/domain/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox } from '../outbox';
import { SourceAssetsNotReadyError, sourceAssetIds } from '../references';
import { tempDatabase } from './service';

let server: http.Server;
let url: string;
/** What GET /v0/aois/{aoi_id}/assets lists right now. */
let assets: Array<Record<string, unknown>> = [];
const visualizationBodies: unknown[] = [];

const asset = (id: string, asset_type: string) =>
  buildAsset({ id, aoi_id: 'aoi-9', asset_type, visualization_id: null });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'GET' && path === '/v0/aois/aoi-9/assets') {
        return send(200, {
          assets,
          pagination: { limit: 1000, offset: 0, total: assets.length },
        });
      }
      if (req.method === 'POST' && path === '/v0/aois') {
        return send(201, buildAoi({ aoi_id: 'aoi-9', status: 'started' }));
      }
      if (req.method === 'POST' && path === '/v0/aois/aoi-9/visualizations') {
        visualizationBodies.push(JSON.parse(text));
        return send(201, buildVisualization({ id: 'vis-9', aoi_id: 'aoi-9', status: 'creating' }));
      }
      send(404, {
        error: { code: 'not_found', message: `no ${req.method} ${path}`, details: null },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  assets = [];
  visualizationBodies.length = 0;
});

const client = (dialect: 'spec' | 'provider-v0'): EoClient =>
  createEoClient({ baseUrl: url, apiKey: 'k', dialect, retry: { maxAttempts: 1 } });

describe('sourceAssetIds', () => {
  it("takes the provider's mosaics and STAC items, never its visualizations", async () => {
    assets = [asset('m1', 'mosaic'), asset('v1', 'visualization'), asset('s1', 'stac_item')];
    expect(await sourceAssetIds(client('provider-v0'), 'aoi-9')).toEqual(['m1', 's1']);
  });

  it('takes scene assets for our spec, and says what the AOI lists when it has none', async () => {
    assets = [asset('m1', 'mosaic'), asset('m2', 'mosaic'), asset('v1', 'visualization')];
    const err = await sourceAssetIds(client('spec'), 'aoi-9').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceAssetsNotReadyError);
    expect((err as Error).message).toBe(
      'AOI aoi-9 has no scene asset yet to visualize (it lists 2 mosaic, 1 visualization): ' +
        'the service is still producing them; the visualization waits and is sent on a later flush',
    );
    assets = [asset('sc1', 'scene')];
    expect(await sourceAssetIds(client('spec'), 'aoi-9')).toEqual(['sc1']);
  });
});

describe('a queued visualization of a queued AOI', () => {
  const db = tempDatabase();
  afterEach(() => {
    db.sqlite.exec('DELETE FROM outbox');
  });
  afterAll(() => db.remove());

  it('waits while the AOI has no source asset, then goes with its mosaics', async () => {
    const outbox = createOutbox({ db: db.sqlite, client: client('provider-v0') });
    const aoi = outbox.enqueue('aoi', {
      name: 'Field',
      description: '',
      satellite_id: 'sat-a',
      provider: 'p',
      project_id: 'prj',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 50],
            [10.1, 50],
            [10.1, 50.1],
            [10, 50],
          ],
        ],
      },
      item_ids: ['it-1'],
    });
    const vis = outbox.enqueue('visualization', {
      aoi_id: `local:${aoi.id}`,
      index_id: 'idx-ndvi',
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });

    const first = await outbox.flush({ ignoreBackoff: true });
    expect(first).toMatchObject({ sent: 1, failed: 0 });
    const waiting = outbox.get(vis.id)!;
    expect(waiting.state).toBe('queued');
    expect(waiting.lastError?.message).toMatch(/AOI aoi-9 has no mosaic or stac_item asset yet/);
    expect(visualizationBodies).toHaveLength(0);

    assets = [asset('m1', 'mosaic'), asset('s1', 'stac_item'), asset('v0', 'visualization')];
    const second = await outbox.flush({ ignoreBackoff: true });
    expect(second).toMatchObject({ sent: 1, failed: 0, remaining: 0 });
    expect(visualizationBodies).toEqual([{ index_id: 'idx-ndvi', src_asset_ids: ['m1', 's1'] }]);
  });
});

/**
 * Benchmark: GET /v0/orders?limit=100 throughput of the real service on 127.0.0.1 (a real
 * listen on port 0) against a bare `node:http` server that answers the same bytes, measured
 * by the same keep-alive `http.Agent` client in the same run. Prints requests/s of both and
 * their ratio (target >= 0.5).
 *
 *   bash scripts/pnpm.sh --filter @eo/server exec tsx bench/orders-list.ts [--smoke]
 *
 * `--smoke` runs a few hundred requests only (a check that the bench works, not a figure).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeArchiveInserter } from '../src/archive/repository';
import { reportVerdict } from '@eo/bench-kit';
import { startServer } from '../src/server';
import { seedDemo } from '../src/seed/demo';
import { DEMO } from '../src/reference/catalog';

const smoke = process.argv.includes('--smoke');
const ORDERS = 120;
const CONCURRENCY = 8;
const REQUESTS = smoke ? 300 : 4000;
const WARMUP = smoke ? 50 : 500;
const URL_PATH = '/v0/orders?limit=100';

function box(w: number, s: number, e: number, n: number) {
  return {
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
  };
}
const fc = (w: number, s: number) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', geometry: box(w, s, w + 0.1, s + 0.08) }],
});

/** A realistic mix: tasking, archive (2 scenes) and recurring items. */
function orderBody(k: number) {
  const w = 10 + (k % 20) * 0.2;
  const s = 44 + (k % 7) * 0.1;
  const project_id = DEMO.projects[k % 2]!.id;
  const items: unknown[] = [
    {
      project_id,
      name: `Survey ${k}`,
      geometry: fc(w, s),
      start_date: '2031-06-01T00:00:00Z',
      end_date: '2031-06-30T00:00:00Z',
      delivery_speed: k % 3 === 0 ? 'EXPRESS' : 'STANDARD',
      usecase: 'agriculture',
    },
  ];
  if (k % 2 === 0) {
    items.push({
      project_id,
      name: `Archive ${k}`,
      geometry: fc(w, s),
      item_ids: ['bench-scene-a', 'bench-scene-b'],
    });
  }
  if (k % 5 === 0) {
    items.push({
      project_id,
      name: `Watch ${k}`,
      geometry: fc(w, s),
      recurrence: 'WEEKLY',
      start_date: '2031-06-01T00:00:00Z',
      end_date: '2031-07-01T00:00:00Z',
      no_of_occurrences: 4,
      cloud_cover: 40,
    });
  }
  return { order_items: items };
}

function scene(id: string) {
  return {
    id,
    type: 'Feature' as const,
    collection: 'col-aurora-l2a',
    stac_version: '1.0.0',
    stac_extensions: [],
    bbox: [9, 43, 15, 46],
    geometry: box(9, 43, 15, 46),
    assets: { analytic: { href: `https://archive.example/${id}.tif`, roles: ['data'] } },
    links: [],
    properties: {
      datetime: '2024-05-17T10:21:33Z',
      'eo:cloud_cover': 4,
      gsd: 3,
      'view:off_nadir': 7,
      'view:sun_azimuth': 150,
      'view:sun_elevation': 58,
      platform: 'aurora-1',
      constellation: 'aurora',
      instruments: ['msi'],
    },
  };
}

interface Target {
  port: number;
}

/** Runs `total` GETs with `CONCURRENCY` loops over one keep-alive agent; returns requests/s. */
async function measure(target: Target, total: number, expectedBytes: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let issued = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port: target.port,
          path: URL_PATH,
          agent,
          headers: { authorization: apiKey },
        },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => {
            if (res.statusCode !== 200 || bytes !== expectedBytes) {
              reject(
                new Error(
                  `bad response: ${res.statusCode}, ${bytes} bytes (expected ${expectedBytes})`,
                ),
              );
            } else resolve();
          });
        },
      );
      req.on('error', reject);
    });
  const loop = async () => {
    while (issued < total) {
      issued++;
      await one();
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  agent.destroy();
  return total / seconds;
}

let apiKey = '';

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-orders-'));
  const server = await startServer({ dataDir, logLevel: false, workerTickMs: 0, stepDelayMs: 0 });
  const bare = http.createServer();
  try {
    const { sqlite, worker } = server.app.ctx;
    apiKey = seedDemo(sqlite, { nowMs: Date.now(), scenes: 0 }).demoKey!;
    const insertScene = makeArchiveInserter(sqlite);
    sqlite.transaction(() => {
      insertScene(scene('bench-scene-a'), 'sat-aurora-1');
      insertScene(scene('bench-scene-b'), 'sat-aurora-2');
    })();
    for (let k = 0; k < ORDERS; k++) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v0/orders',
        headers: { authorization: apiKey },
        payload: orderBody(k),
      });
      if (res.statusCode !== 201)
        throw new Error(`seeding order ${k}: ${res.statusCode} ${res.body}`);
    }
    worker.drain(1_000_000);

    const port = (server.app.server.address() as AddressInfo).port;
    const sample = await fetch(`http://127.0.0.1:${port}${URL_PATH}`, {
      headers: { authorization: apiKey },
    });
    const bytes = Buffer.from(await sample.arrayBuffer());
    const contentType = sample.headers.get('content-type') ?? 'application/json; charset=utf-8';
    const parsed = JSON.parse(bytes.toString('utf8')) as {
      orders: Array<{ order_items: unknown[] }>;
    };
    bare.on('request', (_req, res) => {
      res.writeHead(200, { 'content-type': contentType, 'content-length': bytes.length });
      res.end(bytes);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const barePort = (bare.address() as AddressInfo).port;

    const items = parsed.orders.reduce((s, o) => s + o.order_items.length, 0);
    console.log(
      `GET ${URL_PATH}: ${parsed.orders.length} orders, ${items} order items, ${(bytes.length / 1024).toFixed(1)} KiB per response`,
    );
    console.log(
      `client: node:http keep-alive agent, ${CONCURRENCY} concurrent, ${REQUESTS} requests per run${smoke ? ' (smoke)' : ''}`,
    );

    await measure({ port: barePort }, WARMUP, bytes.length);
    await measure({ port }, WARMUP, bytes.length);
    // Alternate the two to spread machine noise evenly; keep each side's best run.
    let bareRps = 0;
    let appRps = 0;
    for (let round = 0; round < (smoke ? 1 : 3); round++) {
      bareRps = Math.max(bareRps, await measure({ port: barePort }, REQUESTS, bytes.length));
      appRps = Math.max(appRps, await measure({ port }, REQUESTS, bytes.length));
    }
    const ratio = appRps / bareRps;
    console.log(`bare node:http (same bytes): ${bareRps.toFixed(0)} requests/s`);
    console.log(`eo-server GET /v0/orders:    ${appRps.toFixed(0)} requests/s`);
    reportVerdict(
      'orders list',
      [{ what: 'eo-server / bare node:http requests/s', value: ratio, atLeast: 0.5 }],
      { smoke },
    );
  } finally {
    await new Promise<void>((resolve) =>
      bare.listening ? bare.close(() => resolve()) : resolve(),
    );
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * Benchmark: GET /v0/orders?limit=100 throughput of the real service on 127.0.0.1 (a real
 * listen on port 0) against a bare `node:http` server that answers the same bytes, each in its
 * own child process, measured by the same keep-alive `http.Agent` client in this process in
 * the same run. Prints requests/s (medians of alternating runs) and the ratios against the bare
 * server (target >= 0.5 each; a miss exits 1) of the service twice over:
 * - uncached (`ordersCacheBytes: 0`): every request reads the page's orders and assembles the
 *   body, so the figure moves when the list's own work does (a cached page cannot show that);
 * - cached, as in use: repeats of an unchanged page come from the page cache, so what that
 *   ratio prices is the framework, auth and validation around it.
 *
 *   bash scripts/pnpm.sh --filter @eo/reference-service exec tsx bench/orders-list.ts [--smoke]
 *
 * `--smoke` runs a few hundred requests only (a check that the bench works, not a figure).
 * `EO_BENCH_CPU_PROF=<dir>` writes a V8 CPU profile of the uncached server there (`--cpu-prof`;
 * open it in Chrome DevTools): where its time per request goes.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeArchiveInserter } from '../src/archive/repository';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, reportVerdict } from '@eo/bench-kit';
import { startServer } from '../src/server';
import { seedDemo } from '../src/seed/demo';
import { DEMO } from '@eo/fixtures';

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

/** A server of this bench in its own process (its own event loop): resolves with its port. */
function forkServer(
  env: Record<string, string>,
  extraExecArgv: string[] = [],
): Promise<{ port: number; stop(): void }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: [...process.execArgv, ...extraExecArgv],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) =>
      // A disconnect lets the child exit by itself, so a --cpu-prof profile gets written.
      resolve({ port: (m as { port: number }).port, stop: () => child.disconnect() }),
    );
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** The child side of `forkServer`: the service on the seeded data dir, or the bare server. */
async function serveChild(role: string): Promise<void> {
  process.on('disconnect', () => process.exit(0));
  if (role === 'app' || role === 'app-uncached') {
    const server = await startServer({
      dataDir: process.env.EO_BENCH_DATA!,
      logLevel: false,
      workerTickMs: 0,
      stepDelayMs: 0,
      ...(role === 'app-uncached' ? { ordersCacheBytes: 0 } : {}),
    });
    process.send!({ port: (server.app.server.address() as AddressInfo).port });
    return;
  }
  const bytes = fs.readFileSync(process.env.EO_BENCH_BYTES!);
  const type = process.env.EO_BENCH_TYPE!;
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
    res.end(bytes);
  });
  bare.listen(0, '127.0.0.1', () => process.send!({ port: (bare.address() as AddressInfo).port }));
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-orders-'));
  const stops: Array<() => void> = [];
  try {
    // Seeded in this process, then served by child processes: the client measured here never
    // shares an event loop with either server (it did, with both, so it could not tell them apart).
    const server = await startServer({ dataDir, logLevel: false, workerTickMs: 0, stepDelayMs: 0 });
    let bytes: Buffer;
    let contentType: string;
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
      const sample = await server.app.inject({
        method: 'GET',
        url: URL_PATH,
        headers: { authorization: apiKey },
      });
      bytes = sample.rawPayload;
      contentType = String(sample.headers['content-type'] ?? 'application/json; charset=utf-8');
    } finally {
      await server.close();
    }
    const bytesFile = path.join(dataDir, 'page.json');
    fs.writeFileSync(bytesFile, bytes);
    const app = await forkServer({ EO_BENCH_CHILD: 'app', EO_BENCH_DATA: dataDir });
    stops.push(app.stop);
    const profileDir = process.env.EO_BENCH_CPU_PROF;
    const uncached = await forkServer(
      { EO_BENCH_CHILD: 'app-uncached', EO_BENCH_DATA: dataDir },
      profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    );
    stops.push(uncached.stop);
    const bare = await forkServer({
      EO_BENCH_CHILD: 'bare',
      EO_BENCH_BYTES: bytesFile,
      EO_BENCH_TYPE: contentType,
    });
    stops.push(bare.stop);

    const parsed = JSON.parse(bytes.toString('utf8')) as {
      orders: Array<{ order_items: unknown[] }>;
    };
    const items = parsed.orders.reduce((s, o) => s + o.order_items.length, 0);
    console.log(
      `GET ${URL_PATH}: ${parsed.orders.length} orders, ${items} order items, ${(bytes.length / 1024).toFixed(1)} KiB per response (identity)`,
    );
    console.log(
      `client: node:http keep-alive agent, ${CONCURRENCY} concurrent, ${REQUESTS} requests per run, each server in its own process${smoke ? ' (smoke)' : ''}`,
    );

    await measure({ port: bare.port }, WARMUP, bytes.length);
    await measure({ port: app.port }, WARMUP, bytes.length);
    await measure({ port: uncached.port }, WARMUP, bytes.length);
    // Alternate the three to spread machine noise evenly; each side's median run.
    const bareRuns: number[] = [];
    const appRuns: number[] = [];
    const uncachedRuns: number[] = [];
    for (let round = 0; round < (smoke ? 1 : 3); round++) {
      bareRuns.push(await measure({ port: bare.port }, REQUESTS, bytes.length));
      appRuns.push(await measure({ port: app.port }, REQUESTS, bytes.length));
      uncachedRuns.push(await measure({ port: uncached.port }, REQUESTS, bytes.length));
    }
    const bareRps = median(bareRuns);
    const appRps = median(appRuns);
    const uncachedRps = median(uncachedRuns);
    console.log(`bare node:http (same bytes):          ${bareRps.toFixed(0)} requests/s`);
    console.log(`eo-server GET /v0/orders, uncached:    ${uncachedRps.toFixed(0)} requests/s`);
    console.log(`eo-server GET /v0/orders, page cache:  ${appRps.toFixed(0)} requests/s`);
    reportVerdict(
      'orders list',
      [
        {
          what: 'eo-server uncached / bare node:http requests/s',
          value: uncachedRps / bareRps,
          atLeast: 0.5,
        },
        {
          what: 'eo-server with its page cache / bare node:http requests/s',
          value: appRps / bareRps,
          atLeast: 0.5,
        },
      ],
      { smoke },
    );
  } finally {
    for (const stop of stops) stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const role = process.env.EO_BENCH_CHILD;
(role ? serveChild(role) : main()).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * The site-window benchmark: a 2 km x 2 km site taken offline from a 20 km x 20 km Aurora scene
 * (3 m, native resolution) through each simulated link of @eo/bench-kit (2 Mbit/s, 600 ms and
 * 20 Mbit/s, 100 ms). Only
 * the file's part is timed (from the header's read to the last tile: the download operations'
 * polls before it are the service's pace, not the link's). Per sample, beside the same run's
 * baseline:
 * - bytes on the wire ÷ the window's floor (the header's read plus the compressed tiles that
 *   meet the site, `plannedBytes`): target at most 1.2;
 * - wall time ÷ the link's floor for those bytes (serialisation + the header's round trip + the
 *   tiles' round trip): target at most 1.3;
 * - the whole-file fallback's floor (the scene's COG over the same link), for comparison.
 * The scene's COG is rendered once before the samples (the service's CPU, not the link).
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/site-window.ts [--smoke] [--samples N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEoClient, type EoClient } from '@eo/api-client';
import {
  LINKS,
  linkFloorMs,
  median,
  reportVerdict,
  startLink,
  type Check,
  type Link,
  type LinkProfile,
} from '@eo/bench-kit';
import { openMirrorDatabase } from '../src/db/open';
import { areaAround } from '../src/offline/area';
import type { OfflineRaster } from '../src/offline/rasters';
import { takeOffline, type OfflineProgress } from '../src/offline/take-offline';
import { fmt, log, smoke, tempDir } from './common';

const { values } = parseArgs({
  options: { samples: { type: 'string' }, smoke: { type: 'boolean' } },
  strict: false,
});
const SAMPLES = Number(values.samples ?? (smoke ? 1 : 3));
/** Smoke: a 2 km scene and a 600 m site (seconds); full: the 20 km scene, 2 km site. */
const SCENE_KM = smoke ? 2 : 20;
const SITE_HALF_M = smoke ? 300 : 1000;
const SCENE = {
  id: `BENCH_AUR1_${SCENE_KM}KM`,
  lon: 11.35,
  lat: 44.5,
  km: SCENE_KM,
  datetime: '2024-06-20T10:30:00Z',
  cloudCover: 10,
};
const BYTES_TARGET = 1.2;
const TIME_TARGET = 1.3;
/** The links of the issue: a satellite terminal and a good cellular connection. */
const LINK_PROFILES = [LINKS.satellite, LINKS.cellular] as const;

/** Orders the scene (an archive item) and waits for its catalog record (bounded). */
async function orderScene(client: EoClient): Promise<string> {
  const d = 0.004;
  const ring: [number, number][] = [
    [SCENE.lon - d, SCENE.lat - d],
    [SCENE.lon + d, SCENE.lat - d],
    [SCENE.lon + d, SCENE.lat + d],
    [SCENE.lon - d, SCENE.lat + d],
    [SCENE.lon - d, SCENE.lat - d],
  ];
  const order = await client.createOrder({
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name: 'Bench site',
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] } }],
        },
        item_ids: [SCENE.id],
      },
    ],
  });
  for (let tries = 0; tries < 1200; tries++) {
    const { order_items } = await client.listOrderItems({ order_ids: [order.id] });
    const id = order_items[0]?.tasks?.[0]?.catalog_id;
    if (typeof id === 'string') return id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the archive order of the bench scene was not fulfilled within 60 s');
}

interface Sample {
  readonly raster: OfflineRaster;
  readonly wireBytes: number;
  readonly ms: number;
}

async function main(): Promise<void> {
  const dir = tempDir('site-window');
  const { insertSquareScene, seedDemo, startServer } = await import('@eo/reference-service');
  const server = await startServer({
    dataDir: path.join(dir, 'service'),
    logLevel: false,
    stepDelayMs: 0,
    workerTickMs: 5,
  });
  try {
    const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 20 }).demoKey!;
    insertSquareScene(server.app.ctx.sqlite, SCENE);
    const direct = createEoClient({ baseUrl: server.url, apiKey: key });
    const recordId = await orderScene(direct);
    const site = {
      scene: { kind: 'catalog' as const, id: recordId },
      area: areaAround(SCENE.lon, SCENE.lat, SITE_HALF_M),
      resolution: 'native' as const,
    };
    // The scene's COG rendered (straight to the service): the samples read a stored file.
    log(`rendering the ${SCENE_KM} km scene's COG ...`);
    const t0 = performance.now();
    const warmDb = openMirrorDatabase(path.join(dir, 'warm.db'));
    const warm = await takeOffline(warmDb, site, {
      client: direct,
      serviceUrl: server.url,
      budgetBytes: 1e10,
      pollMs: 100,
      maxPollMs: 1000,
    });
    warmDb.close();
    const cog = server.app.ctx.imagery.cogs.ensure('org-demo', { source: 'catalog', id: recordId });
    const wholeBytes = cog.status === 'ready' ? cog.bytes : Number.NaN;
    log(
      `  rendered in ${fmt((performance.now() - t0) / 1000, 1)} s; window ${warm.width} x ${warm.height} px`,
    );

    const checks: Check[] = [
      {
        what: `window ÷ whole file, bytes`,
        value: (100 * warm.plannedBytes!) / wholeBytes,
        unit: '%',
        digits: 1,
      },
    ];
    for (const profile of LINK_PROFILES) {
      const link = await startLink(server.url, profile);
      try {
        checks.push(...(await sampleLink(link, profile, key, site, wholeBytes, dir)));
      } finally {
        await link.close();
      }
    }
    reportVerdict(
      `site window (${SCENE_KM} km scene, ${2 * SITE_HALF_M} m site, ${SAMPLES} samples a link)`,
      checks,
      { smoke },
    );
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Site = Parameters<typeof takeOffline>[1];

/** SAMPLES takes of the site through one link, and its checks beside that link's floors. */
async function sampleLink(
  link: Link,
  profile: LinkProfile,
  key: string,
  site: Site,
  wholeBytes: number,
  dir: string,
): Promise<Check[]> {
  log(`through ${profile.name}:`);
  const client = createEoClient({ baseUrl: link.url, apiKey: key });
  const samples: Sample[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const db = openMirrorDatabase(path.join(dir, `m${k}-${profile.bitsPerSecond}.db`));
    let start = 0;
    let end = 0;
    let wireBytes = 0;
    const onProgress = (p: OfflineProgress) => {
      if (p.phase === 'opening') {
        link.resetCounters();
        start = performance.now();
      } else if (p.phase === 'writing') {
        end = performance.now();
        wireBytes = link.counters().down;
      }
    };
    const raster = await takeOffline(db, site, {
      client,
      serviceUrl: link.url,
      budgetBytes: 1e10,
      pollMs: 100,
      maxPollMs: 1000,
      onProgress,
    });
    db.close();
    if (raster.mode !== 'window')
      throw new Error(`sample ${k}: taken ${raster.mode}, not a window`);
    samples.push({ raster, wireBytes, ms: end - start });
    const floor = linkFloorMs(profile, wireBytes) + profile.rttMs;
    log(
      `  sample ${k + 1}: ${fmt(wireBytes)} B on the wire (window floor ${fmt(raster.plannedBytes!)} B), ` +
        `${fmt(end - start)} ms (link floor ${fmt(floor)} ms)`,
    );
  }
  const planned = samples[0]!.raster.plannedBytes!;
  const bytesRatio = median(samples.map((s) => s.wireBytes / s.raster.plannedBytes!));
  const timeRatio = median(
    samples.map((s) => s.ms / (linkFloorMs(profile, s.wireBytes) + profile.rttMs)),
  );
  return [
    {
      what: `window floor (header + tiles that meet the site)`,
      value: planned,
      unit: 'B',
      digits: 0,
    },
    {
      what: `bytes on the wire ÷ window floor (${profile.name})`,
      value: bytesRatio,
      atMost: BYTES_TARGET,
      unit: '×',
    },
    {
      what: `wall time ÷ link floor (${profile.name})`,
      value: timeRatio,
      atMost: TIME_TARGET,
      unit: '×',
    },
    {
      what: `median wall time of the window (${profile.name})`,
      value: median(samples.map((s) => s.ms)) / 1000,
      unit: 's',
      digits: 1,
    },
    {
      what: `whole-file fallback's floor (${profile.name})`,
      value: linkFloorMs(profile, wholeBytes) / 1000,
      unit: 's',
      digits: 1,
    },
  ];
}

await main();

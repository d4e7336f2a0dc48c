/**
 * The quicklooks wire benchmark (issue 15): the first imagery pass of a fresh mirror — a
 * thumbnail for each of N catalog records (10,000 full size) — through the simulated field
 * links of @eo/bench-kit (`startLink`: 2 Mbit/s with 600 ms round trips, 20 Mbit/s with 100
 * ms). Prints, per link, the bytes on the wire and the wall time against the link's floor
 * (bytes down ÷ bandwidth + one round trip) as a ratio; target at most 1.3× on the 2 Mbit/s link
 * (exit 1 above it), reported on the 20 Mbit/s one, where the client's CPU per picture weighs
 * as much as the line (as in wire.ts). Pictures are bulk transfer: the pass's bounded
 * concurrency must keep the line busy across its round trips.
 *
 * Only the pictures are measured: the records are synced straight from the service first (their
 * wire is `wire.ts`'s), then `syncImagery` resolves the records' root-relative signed URLs
 * against the link. The service's render cache is filled when the data is built (rendering is
 * the service's CPU, ~0.1 s a thumbnail, not the link; `bench/quicklooks.ts` of the server
 * measures it), so the measured pass reads stored pictures.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/quicklooks-wire.ts [--smoke] [--records N] [--link satellite|cellular]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEoClient } from '@eo/api-client';
import { makeCatalogInserter, type CatalogRecordOut } from '@eo/catalog-store';
import { DEMO } from '@eo/fixtures';
import {
  LINKS,
  linkFloorMs,
  reportVerdict,
  startLink,
  type Check,
  type LinkProfile,
} from '@eo/bench-kit';
import type Database from 'better-sqlite3';
import { openMirrorDatabase } from '../src/db/open';
import { makeImageryStore } from '../src/mirror/imagery';
import { createSyncEngine } from '../src/pull/engine';
import { syncImagery } from '../src/pull/imagery';
import { cached, fmt, log, smoke, tempDir } from './common';
import { forkService } from './reference-service';

const { values } = parseArgs({
  options: {
    records: { type: 'string' },
    link: { type: 'string' },
    smoke: { type: 'boolean' },
  },
  strict: false,
});
const RECORDS = Number(values.records ?? (smoke ? 40 : 10_000));
const TARGET_FLOOR_RATIO = 1.3;
/** The demo seed makes every 20th archive scene a catalog record (with its quicklook assets)... */
const SCENES_PER_RECORD = 20;
/** ...up to this many (`DEMO_CATALOG_MAX` of the server's seed). */
const DEMO_CATALOG_MAX = 500;
const KEY_FILE = 'bench-key';

/** The service's data: N demo catalog records with their thumbnails rendered and stored. */
async function quicklookData(records: number): Promise<string> {
  return cached(`quicklooks-v2-r${records}`, async (dir) => {
    log(`building ${records} catalog records and rendering their thumbnails in ${dir} ...`);
    const t0 = performance.now();
    const { seedDemo, startServer } = await import('@eo/reference-service');
    const server = await startServer({
      dataDir: dir,
      logLevel: false,
      stepDelayMs: 0,
      workerTickMs: 0,
    });
    try {
      const sqlite = server.app.ctx.sqlite;
      const seeded = Math.min(records, DEMO_CATALOG_MAX);
      const key = seedDemo(sqlite, {
        nowMs: Date.now(),
        scenes: seeded * SCENES_PER_RECORD,
      }).demoKey!;
      addCopies(sqlite, records - seeded);
      fs.writeFileSync(path.join(dir, KEY_FILE), key, { mode: 0o600 });
      // One imagery pass straight against the service renders (and stores) every thumbnail.
      const mirrorDir = tempDir('quicklooks-warm');
      const db = openMirrorDatabase(path.join(mirrorDir, 'mirror.db'));
      try {
        const client = createEoClient({ baseUrl: server.url, apiKey: key });
        await createSyncEngine({ db, client }).sync({ resources: ['catalogs'] });
        const r = await syncImagery(db.sqlite, makeImageryStore(db.sqlite, db.file), {
          serviceUrl: server.url,
          budgetBytes: Number.MAX_SAFE_INTEGER,
          concurrency: 2,
          onProgress: (p) => {
            if (p.seen % 500 === 0) log(`  ${p.seen} of ${p.total} thumbnails rendered`);
          },
        });
        if (r.fetched !== r.wanted) throw new Error(`rendered ${r.fetched} of ${r.wanted}`);
      } finally {
        db.close();
        fs.rmSync(mirrorDir, { recursive: true, force: true });
      }
    } finally {
      await server.close();
    }
    log(`  built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
}

/**
 * The demo seed stops at DEMO_CATALOG_MAX records: the rest are copies of its records under new
 * record and item ids (so each renders its own picture: the id seeds the clouds).
 */
function addCopies(sqlite: Database.Database, count: number): void {
  const originals = (
    sqlite.prepare('SELECT record_json FROM catalog_records ORDER BY id').pluck().all() as string[]
  ).map((j) => JSON.parse(j) as CatalogRecordOut);
  const insert = makeCatalogInserter(sqlite);
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const base = originals[i % originals.length]!;
      const copy = Math.floor(i / originals.length);
      insert(
        {
          ...base,
          id: `${base.id}-copy${copy}`,
          task_id: null,
          details: { ...base.details, id: `${base.details.id}-copy${copy}` },
        },
        { orgId: DEMO.orgId, orderId: null, orderItemId: null },
      );
    }
  })();
}

/** A private copy of the data (database, key, stored pictures) for one run. */
function dataCopy(source: string): { dir: string; dispose(): void } {
  const dir = tempDir('quicklooks-service');
  for (const f of fs.readdirSync(source))
    if (f.startsWith('eo.sqlite') || f === KEY_FILE || f === 'quicklooks')
      fs.cpSync(path.join(source, f), path.join(dir, f), { recursive: true });
  return { dir, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

interface Pass {
  readonly ms: number;
  readonly up: number;
  readonly down: number;
  readonly pictures: number;
  readonly pictureBytes: number;
}

async function overLink(profile: LinkProfile, source: string): Promise<Pass> {
  const data = dataCopy(source);
  const service = await forkService(data.dir);
  const link = await startLink(service.url, profile);
  const dir = tempDir('quicklooks-wire');
  const db = openMirrorDatabase(path.join(dir, 'mirror.db'));
  try {
    // The records straight from the service: only the pictures cross the link.
    const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
    await createSyncEngine({ db, client }).sync({ resources: ['catalogs'] });
    link.resetCounters();
    const t = performance.now();
    const r = await syncImagery(db.sqlite, makeImageryStore(db.sqlite, db.file), {
      serviceUrl: link.url,
      budgetBytes: Number.MAX_SAFE_INTEGER,
    });
    const ms = performance.now() - t;
    if (r.fetched !== r.wanted || r.wanted !== RECORDS)
      throw new Error(`fetched ${r.fetched} of ${r.wanted} thumbnails (${RECORDS} records)`);
    const { up, down } = link.counters();
    return { ms, up, down, pictures: r.fetched, pictureBytes: r.fetchedBytes };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await link.close();
    await service.stop();
    data.dispose();
  }
}

const source = await quicklookData(RECORDS);
const links = (Object.entries(LINKS) as Array<[string, LinkProfile]>).filter(
  ([key]) => values.link === undefined || values.link === key,
);
const checks: Check[] = [];
const lines = [
  `quicklooks wire${smoke ? ' (smoke sizes, not a figure)' : ''}: first imagery pass of ${fmt(RECORDS)} thumbnails through a simulated link`,
];
for (const [key, profile] of links) {
  log(`quicklooks wire: ${profile.name} ...`);
  const p = await overLink(profile, source);
  const floor = linkFloorMs(profile, p.down);
  lines.push(
    `  ${profile.name}: ${fmt(p.pictures)} thumbnails (${fmt(p.pictureBytes / 1e6, 1)} MB of PNG) in ${fmt(p.ms / 1000, 1)} s; floor ${fmt(floor / 1000, 1)} s (${fmt(p.down)} bytes down ÷ bandwidth + one RTT) -> ${(p.ms / floor).toFixed(2)}×`,
    `    on the wire ${fmt(p.down / p.pictures)} bytes down / picture (PNG ${fmt(p.pictureBytes / p.pictures)}), ${fmt(p.up / p.pictures)} up`,
  );
  checks.push({
    what: `${profile.name}: wall time / link floor`,
    value: p.ms / floor,
    // Judged on the satellite link, as wire.ts does: at 20 Mbit/s the client's CPU per picture
    // (hash, write, index row) is of the order of the line's time, so it is reported only.
    ...(key === 'satellite' ? { atMost: TARGET_FLOOR_RATIO } : {}),
    unit: '×',
  });
  checks.push({ what: `${profile.name}: MB down`, value: p.down / 1e6, digits: 1 });
}
console.log(lines.join('\n'));
reportVerdict('quicklooks wire', checks, { smoke });

/**
 * A mirror with N catalog records for benchmarks: the reference service's demo records as
 * templates, copied under new ids with their footprints moved across the land masses and their
 * properties varied (deterministic), written with @eo/catalog-store as a sync would.
 */
import { createEoClient } from '@eo/api-client';
import { COMPACT_LAYOUT, makeCatalogInserter, type CatalogRecordOut } from '@eo/catalog-store';
import { seedDemo, startServer } from '@eo/reference-service';
import { openMirrorDatabase, type MirrorDatabase } from '@eo/sync';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Mulberry32: the same records on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function demoTemplates(): Promise<CatalogRecordOut[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-desktop-bench-service-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  try {
    const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 3000 }).demoKey!;
    const client = createEoClient({ baseUrl: server.url, apiKey: key });
    const out: CatalogRecordOut[] = [];
    for await (const page of client.pages.catalogs({}, { pageSize: 500 }))
      out.push(...(page.items as CatalogRecordOut[]));
    return out;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Ring = number[][];

function shifted(record: CatalogRecordOut, i: number, rnd: () => number): CatalogRecordOut {
  const details = record.details as Record<string, unknown> & {
    geometry: { type: string; coordinates: unknown } | null;
    properties: Record<string, unknown>;
  };
  // Land-ish band: lon -170..170, lat -55..70.
  const dx = -170 + rnd() * 340;
  const dy = -55 + rnd() * 125;
  let geometry = details.geometry;
  if (geometry?.type === 'Polygon') {
    const rings = geometry.coordinates as Ring[];
    const [cx, cy] = rings[0]![0]!;
    geometry = {
      type: 'Polygon',
      coordinates: rings.map((r) => r.map(([x, y]) => [x! - cx! + dx, y! - cy! + dy])),
    };
  }
  const ring = geometry?.type === 'Polygon' ? (geometry.coordinates as Ring[])[0]! : null;
  const xs = ring?.map((p) => p[0]!) ?? [dx];
  const ys = ring?.map((p) => p[1]!) ?? [dy];
  const day = Math.floor(rnd() * 3 * 365);
  return {
    ...record,
    id: `bench-${i}`,
    details: {
      ...details,
      id: `bench-item-${i}`,
      geometry,
      bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      properties: {
        ...details.properties,
        datetime: new Date(Date.UTC(2023, 0, 1) + day * 86_400_000 + i).toISOString(),
        'eo:cloud_cover': Math.round(rnd() * 10000) / 100,
        'view:off_nadir': Math.round(rnd() * 3000) / 100,
      },
    },
  } as CatalogRecordOut;
}

/** A mirror database in a temp dir holding `n` records; `close()` removes it. */
export async function mirrorWith(
  n: number,
  templates?: CatalogRecordOut[],
): Promise<{ dataDir: string; db: MirrorDatabase; close(): void }> {
  const base = templates ?? (await demoTemplates());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-desktop-bench-'));
  const db = openMirrorDatabase(path.join(dataDir, 'mirror.sqlite'));
  // The mirror's own layout (compact: packed records), as a sync leaves them once packed.
  const insert = makeCatalogInserter(db.sqlite, 'strict', COMPACT_LAYOUT);
  const rnd = prng(42);
  const links = { orgId: 'mirror', orderId: null, orderItemId: null };
  const batch = db.sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) insert(shifted(base[i % base.length]!, i, rnd), links);
  });
  for (let i = 0; i < n; i += 5000) batch(i, Math.min(n, i + 5000));
  return {
    dataDir,
    db,
    close() {
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function timeMs(fn: () => unknown | Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

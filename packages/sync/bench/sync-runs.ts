/**
 * The two ways the first-sync benchmarks pull the same service into a fresh mirror: the floor
 * (plain `fetch`, `JSON.parse`, hand-written upserts of the same schema in one transaction) and
 * the engine with its defaults. Shared by first-sync.ts and sync-stages.ts.
 */
import { createEoClient } from '@eo/api-client';
import type Database from 'better-sqlite3';
import type { openMirrorDatabase } from '../src/db/open';
import { makeRecordPacking } from '../src/mirror/packing';
import { createSyncEngine, DEFAULT_PULL } from '../src/pull/engine';
import type { ServiceProcess } from './reference-service';

const PAGE = DEFAULT_PULL.pageSize;

/** The footprints the service sends (catalog records: polygons). */
type Geometry =
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };

function floorStatements(sqlite: Database.Database) {
  const order = sqlite.prepare(
    `INSERT INTO mirror_orders (id, status, user_id, created_at_us, updated_at_us, pass_id, json)
     VALUES (?, ?, ?, ?, ?, 'floor', ?)
     ON CONFLICT(id) DO UPDATE SET status = excluded.status, user_id = excluded.user_id,
       created_at_us = excluded.created_at_us, updated_at_us = excluded.updated_at_us,
       pass_id = excluded.pass_id, json = excluded.json`,
  );
  const record = sqlite.prepare(
    `INSERT INTO catalog_records (id, org_id, task_id, item_id, collection, datetime_us,
       cloud_cover, off_nadir, gsd, min_lon, min_lat, max_lon, max_lat, created_at_us,
       updated_at_us, record)
     VALUES (?, 'mirror', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET task_id = excluded.task_id, item_id = excluded.item_id,
       collection = excluded.collection, datetime_us = excluded.datetime_us,
       cloud_cover = excluded.cloud_cover, off_nadir = excluded.off_nadir, gsd = excluded.gsd,
       min_lon = excluded.min_lon, min_lat = excluded.min_lat, max_lon = excluded.max_lon,
       max_lat = excluded.max_lat, created_at_us = excluded.created_at_us,
       updated_at_us = excluded.updated_at_us, record = excluded.record
     RETURNING seq`,
  );
  const box = sqlite.prepare(
    'INSERT OR REPLACE INTO catalog_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  // The map's ring beside the box, as the writers keep it (here: the first outer ring as is).
  const footprint = sqlite.prepare(
    'INSERT OR REPLACE INTO catalog_footprints (seq, ring) VALUES (?, ?)',
  );
  const ringBlob = (g: Geometry) => {
    const ring = g.type === 'MultiPolygon' ? g.coordinates[0]![0]! : g.coordinates[0]!;
    const out = Buffer.allocUnsafe((ring.length - 1) * 8);
    for (let i = 0; i < ring.length - 1; i++) {
      out.writeFloatLE(ring[i]![0]!, i * 8);
      out.writeFloatLE(ring[i]![1]!, i * 8 + 4);
    }
    return out;
  };
  // The hand-written shortcuts: ms precision (Date.parse); bounds of the polygon's outer ring.
  const us = (s: unknown) => (typeof s === 'string' ? Date.parse(s) * 1000 : null);
  const bounds = (g: Geometry) => {
    const b = [Infinity, Infinity, -Infinity, -Infinity];
    const rings = g.type === 'MultiPolygon' ? g.coordinates.map((p) => p[0]!) : [g.coordinates[0]!];
    for (const ring of rings)
      for (const [x, y] of ring) {
        b[0] = Math.min(b[0]!, x!);
        b[1] = Math.min(b[1]!, y!);
        b[2] = Math.max(b[2]!, x!);
        b[3] = Math.max(b[3]!, y!);
      }
    return b;
  };
  type Wire = Record<string, unknown> & { details: Record<string, unknown> };
  return {
    order(o: Record<string, unknown>) {
      order.run(
        o.id,
        o.status,
        o.user_id ?? null,
        us(o.created_at),
        us(o.updated_at),
        JSON.stringify(o),
      );
    },
    record(r: Wire) {
      const p = r.details.properties as Record<string, number | string | undefined>;
      const b = bounds(r.details.geometry as Geometry);
      const { seq } = record.get(
        r.id,
        r.task_id ?? null,
        r.details.id,
        r.details.collection ?? null,
        us(p.datetime),
        p['eo:cloud_cover'] ?? null,
        p['view:off_nadir'] ?? null,
        p.gsd ?? null,
        b[0],
        b[1],
        b[2],
        b[3],
        us(r.created_at),
        us(r.updated_at),
        // The text as is, not packed (the compact layout's packing is the engine's cost).
        Buffer.from(JSON.stringify(r)),
      ) as { seq: number };
      box.run(seq, b[0], b[2], b[1], b[3]);
      footprint.run(seq, ringBlob(r.details.geometry as Geometry));
    },
  };
}

export async function floorSync(
  service: ServiceProcess,
  local: ReturnType<typeof openMirrorDatabase>,
): Promise<void> {
  const put = floorStatements(local.sqlite);
  const headers = { authorization: service.key, 'content-type': 'application/json' };
  /** Pages until a short one; each page is parsed and written before the next is asked for. */
  const pages = async (
    get: (offset: number) => Promise<Response>,
    key: string,
    write: (r: never) => void,
  ) => {
    for (let offset = 0; ; offset += PAGE) {
      const res = await get(offset);
      if (!res.ok) throw new Error(`floor: HTTP ${res.status}`);
      const items = readPage(await res.text(), key);
      for (const item of items) write(item as never);
      if (items.length < PAGE) return;
    }
  };
  local.sqlite.exec('BEGIN');
  try {
    await pages(
      (offset) => fetch(`${service.url}/v0/orders?limit=${PAGE}&offset=${offset}`, { headers }),
      'orders',
      put.order,
    );
    await pages(
      (offset) =>
        fetch(`${service.url}/v0/catalogs/search`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ limit: PAGE, offset }),
        }),
      'catalogs',
      put.record,
    );
    local.sqlite.exec('COMMIT');
  } catch (e) {
    local.sqlite.exec('ROLLBACK');
    throw e;
  }
}

/** A page's records (its own function: sync-stages.ts counts it as the floor's transport). */
function readPage(text: string, key: string): unknown[] {
  return (JSON.parse(text) as Record<string, unknown[]>)[key]!;
}

/**
 * What the app does after a sync, when idle: packs every record the sync stored as its text,
 * through the mirror's own packing run (`src/mirror/packing.ts`).
 */
export async function packAll(local: ReturnType<typeof openMirrorDatabase>): Promise<void> {
  await makeRecordPacking(local.sqlite, () => false).pack();
}

/**
 * The engine, with its defaults: orders and the catalog. `oneThread`: its writes on its own
 * connection too (`writeThreadFrom: false`), where the stages of its CPU are measured from one
 * thread's profile (sync-stages.ts).
 */
export async function engineSync(
  service: ServiceProcess,
  local: ReturnType<typeof openMirrorDatabase>,
  oneThread = false,
): Promise<void> {
  const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  const options = oneThread ? { writeThreadFrom: false as const } : {};
  await createSyncEngine({ db: local, client, ...options }).sync({
    resources: ['orders', 'catalogs'],
  });
}

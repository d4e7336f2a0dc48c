/**
 * Follows what this client created until it is done: re-reads every delivery, job and
 * visualization whose status is not final and stores the newer record, every mirrored AOI
 * not final yet (refresh-aois.ts), and every order it sent until it settles (refresh-orders.ts).
 * The spec has no read for
 * any of them; `client.extensions` reads them the way the client's service profile offers (our
 * extension reads, or the provider's job, deliveries and visualizations reads). Where a service does
 * not (404), a visualization is still followed through its AOI's asset list (a spec endpoint:
 * assets carry `visualization_id`, `status` and `progress`); deliveries and jobs keep what the
 * create returned.
 */
import { allItems, type EoClient } from '@eo/api-client';
import type { Asset } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeCreatedRecords } from './created';
import { refreshAois } from './refresh-aois';
import { refreshOrders } from './refresh-orders';
import { idOf, str, type WireRecord } from './rows';

export interface RefreshCreatedOptions {
  readonly sqlite: Database.Database;
  readonly client: EoClient;
  readonly signal?: AbortSignal | undefined;
}

export interface RefreshCreatedReport {
  /** Records re-read (or looked for). */
  readonly checked: number;
  /** Records whose stored JSON changed. */
  readonly updated: number;
  /** Records the service could not give back (no read offered, or unknown there). */
  readonly unavailable: number;
  /** What changed, for a caller that tells its screens. */
  readonly kinds: ReadonlyArray<CreatedKind>;
}

type CreatedKind = 'deliveries' | 'jobs' | 'visualizations' | 'aois' | 'orders';

export async function refreshCreated(
  options: RefreshCreatedOptions,
): Promise<RefreshCreatedReport> {
  const { sqlite, client, signal } = options;
  const created = makeCreatedRecords(sqlite);
  const { deliveries, jobs, visualizations } = created.unfinished();
  const call = { signal };
  let checked = 0;
  let updated = 0;
  let unavailable = 0;
  const kinds = new Set<CreatedKind>();

  const store = (
    kind: 'deliveries' | 'jobs' | 'visualizations',
    before: WireRecord,
    after: WireRecord | null,
    put: (r: WireRecord) => void,
  ) => {
    checked++;
    if (after === null) {
      unavailable++;
      return;
    }
    if (canonical(after) === canonical(before)) return;
    put(after);
    updated++;
    kinds.add(kind);
  };

  for (const d of deliveries) {
    const id = idOf(d, 'delivery_id');
    if (id === null) continue;
    const next = (await client.extensions.getDelivery(id, call)) as WireRecord | null;
    store('deliveries', d, next, created.putDelivery);
  }
  for (const j of jobs) {
    const id = idOf(j, 'id');
    if (id === null) continue;
    // The provider's service reads a job under its workflow: pass the stored record's.
    const job = { id, workflow_id: str(j, 'workflow_id') };
    const next = (await client.extensions.getJob(job, call)) as WireRecord | null;
    store('jobs', j, next, created.putJob);
  }
  const assetsByAoi = new Map<string, Asset[]>();
  for (const v of visualizations) {
    const id = idOf(v, 'id');
    const aoiId = idOf(v, 'aoi_id');
    if (id === null || aoiId === null) continue;
    let next = (await client.extensions.getVisualization(aoiId, id, call)) as WireRecord | null;
    if (next === null) {
      let assets = assetsByAoi.get(aoiId);
      if (!assets) {
        assets = [];
        for await (const a of allItems(
          client.pages.aoiAssets(aoiId, {}, { signal, pageSize: 1000 }),
        ))
          assets.push(a);
        assetsByAoi.set(aoiId, assets);
      }
      next = fromAssets(v, assets);
    }
    store('visualizations', v, next, created.putVisualization);
  }
  const aois = await refreshAois({ sqlite, client, signal, canonical });
  if (aois.updated > 0) kinds.add('aois');
  const orders = await refreshOrders({ sqlite, client, signal, canonical });
  if (orders.updated > 0) kinds.add('orders');
  for (const r of [aois, orders]) {
    checked += r.checked;
    updated += r.updated;
    unavailable += r.unavailable;
  }
  return { checked, updated, unavailable, kinds: [...kinds] };
}

/**
 * A visualization's state as its AOI's assets tell it: progress is the mean of its assets',
 * status `success` / `failed` when all of them are, `partial_success` when all are done but
 * mixed, `creating` meanwhile. Null when the AOI lists none of its assets.
 */
export function fromAssets(v: WireRecord, assets: readonly Asset[]): WireRecord | null {
  const own = assets.filter((a) => a.visualization_id === v['id']);
  if (own.length === 0) return null;
  const progress = Math.round(own.reduce((sum, a) => sum + (a.progress ?? 0), 0) / own.length);
  const statuses = own.map((a) => (a.status ?? '').toLowerCase());
  const all = (s: string) => statuses.every((x) => x === s);
  const done = statuses.every((x) => x === 'success' || x === 'failed');
  const status = all('success')
    ? 'success'
    : all('failed')
      ? 'failed'
      : done
        ? 'partial_success'
        : 'creating';
  return { ...v, status, progress, assets: own };
}

/** JSON with object keys sorted: the same record decoded along another path compares equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

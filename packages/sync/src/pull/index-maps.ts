/**
 * Index maps of mirrored visualizations: for each visualization this client mirrors that is
 * complete (`success`, `partial_success`) and names its index, the index PNG of every date its
 * successful index assets have (newest first), through `client.indexPng`, so the API key goes
 * to the client's service only. Stored in the imagery store beside the quicklooks (same budget,
 * same checks) with its legend: the PNG's headers, or where a service does not send them (the
 * provider's draws its legend into the picture) the AOI's bbox and the index's rescale and
 * colormap. A service without the route (404, 405, 501: our spec has none) is counted as
 * `unavailable`, never an error: the pass goes on with the quicklooks.
 */
import type { EoClient } from '@eo/api-client';
import { Geometry, geometryBbox, IndexMapInfo, type IndexMapLegend } from '@eo/domain';
import type Database from 'better-sqlite3';
import { indexMapVariant, type ImageryStore } from '../mirror/imagery';
import { readPngHeader } from '../mirror/png-header';
import { mapBounded } from './bounded';

/** Statuses a route-less service answers with: the service has no index maps to give. */
const UNAVAILABLE = new Set([404, 405, 501]);
const COMPLETE = new Set(['success', 'partial_success']);

export interface IndexMapReport {
  /** Dates of complete visualizations (with an index) the mirror holds. */
  readonly wanted: number;
  readonly kept: number;
  readonly fetched: number;
  readonly fetchedBytes: number;
  /** Stored files that were missing or of the wrong size: fetched again. */
  readonly bad: number;
  /** The service has no index PNG route (or not for this one): 404, 405, 501. */
  readonly unavailable: number;
  /** Network errors, other statuses, bodies that are not a PNG. */
  readonly failed: number;
  readonly overBudget: number;
  readonly lastError: string | null;
}

interface Wanted {
  readonly visualizationId: string;
  readonly aoiId: string;
  readonly date: string;
  readonly indexId: string;
  readonly indexName: string | null;
  /** The legend to use where the PNG's headers say nothing. */
  readonly fallback: IndexMapLegend | null;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** `YYYY-MM-DD` of an asset date (`2024-01-02`, `2024_01_02` or an instant). */
const dayOf = (v: unknown): string | null => {
  const m = /^(\d{4})[-_](\d{2})[-_](\d{2})/.exec(text(v) ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};
const rescaleOf = (v: unknown): [number, number] | null => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x)))
    return null;
  // One value means [0, value] (the service's reading of the spec's rescale).
  const r = v.length === 1 ? [0, v[0] as number] : v.length === 2 ? (v as number[]) : null;
  return r && r[0]! < r[1]! ? [r[0]!, r[1]!] : null;
};

/** The index maps the mirrored visualizations call for, newest date first. */
function wantedIndexMaps(sqlite: Database.Database): Wanted[] {
  const visualizations = sqlite
    .prepare<[], { id: string; aoi_id: string; status: string | null; json: string }>(
      'SELECT id, aoi_id, status, json FROM mirror_visualizations ORDER BY created_at_us DESC, id',
    )
    .all();
  const aoiJson = sqlite.prepare<[string], string>('SELECT json FROM mirror_aois WHERE aoi_id = ?');
  const aoiAssets = sqlite.prepare<[string], string>(
    'SELECT json FROM mirror_assets WHERE aoi_id = ?',
  );
  const indexJson = sqlite.prepare<[string], string>(
    'SELECT json FROM mirror_indices WHERE id = ?',
  );
  const wanted: Wanted[] = [];
  for (const row of visualizations) {
    if (!COMPLETE.has(row.status ?? '')) continue;
    const v = obj(JSON.parse(row.json)) ?? {};
    const indexId = text(v.index_id);
    if (!indexId) continue; // an expression without an index: the route needs an index id
    const index = obj(JSON.parse(indexJson.pluck().get(indexId) ?? 'null'));
    const aoi = obj(JSON.parse(aoiJson.pluck().get(row.aoi_id) ?? 'null'));
    const geometry = Geometry.safeParse(aoi?.geometry);
    const bbox = geometry.success ? geometryBbox(geometry.data) : null;
    const fallback: IndexMapLegend | null = bbox
      ? {
          bounds: [bbox[0], bbox[1], bbox[2], bbox[3]],
          rescale: rescaleOf(v.rescale) ?? rescaleOf(index?.rescale),
          colormap: text(index?.colormap),
        }
      : null;
    // The visualization's own assets where its record carries them, else the AOI's list.
    const own = Array.isArray(v.assets) ? v.assets : [];
    const listed = own.length
      ? own
      : aoiAssets
          .pluck()
          .all(row.aoi_id)
          .map((j) => JSON.parse(j) as unknown)
          .filter((a) => obj(a)?.visualization_id === row.id);
    const dates = new Set<string>();
    for (const a of listed) {
      const day = obj(a)?.status === 'success' ? dayOf(obj(a)?.date) : null;
      if (day) dates.add(day);
    }
    for (const date of [...dates].sort().reverse())
      wanted.push({
        visualizationId: row.id,
        aoiId: row.aoi_id,
        date,
        indexId,
        indexName: text(v.index_name) ?? text(index?.name),
        fallback,
      });
  }
  return wanted;
}

export interface IndexMapSyncOptions {
  readonly client: EoClient;
  readonly budgetBytes: number;
  readonly concurrency: number;
  readonly signal?: AbortSignal | undefined;
}

export async function syncIndexMaps(
  sqlite: Database.Database,
  store: ImageryStore,
  options: IndexMapSyncOptions,
): Promise<IndexMapReport> {
  const { client, budgetBytes, signal } = options;
  const wanted = wantedIndexMaps(sqlite);
  const missing: Wanted[] = [];
  let kept = 0;
  let bad = 0;
  for (const w of wanted) {
    const present = store.present(w.visualizationId, indexMapVariant(w.date));
    if (present === true) kept++;
    else {
      if (present === 'bad') bad++;
      missing.push(w);
    }
  }
  const n = { fetched: 0, fetchedBytes: 0, unavailable: 0, failed: 0, overBudget: 0 };
  let lastError: string | null = null;
  let used = store.counts().bytes;

  await mapBounded(missing, options.concurrency, signal, async (w) => {
    if (used >= budgetBytes) {
      n.overBudget++;
      return;
    }
    const where = `index map ${w.visualizationId} ${w.date}`;
    let res;
    try {
      res = await client.indexPng(
        w.aoiId,
        w.visualizationId,
        { index_id: w.indexId, date: w.date, visualization_mode: 'theoretical' },
        { signal },
      );
    } catch (e) {
      if (signal?.aborted) throw e;
      n.failed++;
      lastError = `${where}: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    if (!res.ok) {
      if (UNAVAILABLE.has(res.status)) n.unavailable++;
      else {
        n.failed++;
        lastError = `${where}: HTTP ${res.status}`;
      }
      return;
    }
    const bytes = Buffer.from(res.png);
    const h = res.legend;
    const legend = {
      bounds: h.bounds ?? w.fallback?.bounds,
      rescale: h.rescale ?? w.fallback?.rescale ?? null,
      colormap: h.colormap ?? w.fallback?.colormap ?? null,
      index_id: w.indexId,
      index_name: w.indexName,
    };
    const info = IndexMapInfo.safeParse(legend);
    if (!readPngHeader(bytes) || !info.success) {
      n.failed++;
      lastError = `${where}: ${info.success ? 'not a PNG' : 'no bounds (headers nor AOI geometry)'}`;
      return;
    }
    // Checked and stored in one synchronous step: concurrent downloads never overshoot.
    if (used + bytes.length > budgetBytes) {
      n.overBudget++;
      return;
    }
    store.put(w.visualizationId, indexMapVariant(w.date), bytes, {
      aoiId: w.aoiId,
      legendJson: JSON.stringify(info.data),
    });
    used += bytes.length;
    n.fetched++;
    n.fetchedBytes += bytes.length;
  });
  return { wanted: wanted.length, kept, bad, ...n, lastError };
}

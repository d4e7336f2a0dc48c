/**
 * The imagery resource: after the records, the index maps of mirrored visualizations (with a
 * client: pull/index-maps.ts) and the quicklooks of the mirrored catalog records are
 * downloaded into the imagery store (mirror/imagery.ts). Their hrefs are signed URLs that need
 * no API key, on the service's origin (root-relative) or another one: they are fetched with a
 * plain `fetch` and no Authorization header whatever the origin, so the key never leaves for a
 * host that is not the service. What is stored is skipped (a sync interrupted anywhere resumes
 * with what is missing); a refused URL (403: expired or not signed) is counted, not retried,
 * and the catalog's next pass is made a full one so every record comes with a fresh URL.
 */
import type { EoClient } from '@eo/api-client';
import { COMPACT_LAYOUT, makeCatalogRecordReader } from '@eo/catalog-store';
import type { QuicklookVariant } from '@eo/domain';
import type Database from 'better-sqlite3';
import { IMAGERY_VARIANTS, type ImageryChoice, type ImageryStore } from '../mirror/imagery';
import { readPngHeader } from '../mirror/png-header';
import { mapBounded } from './bounded';
import { syncIndexMaps, type IndexMapReport } from './index-maps';

/**
 * Pictures in flight: enough to keep a link busy across its round trips (a 20 Mbit/s link with
 * 100 ms round trips holds ~4.5 thumbnails in flight; 4 left it idle a third of the time in the
 * quicklooks wire bench, 8 reach ~1.25× its floor).
 */
export const DEFAULT_IMAGERY_CONCURRENCY = 8;

export interface ImagerySyncOptions {
  /** The service's URL: root-relative hrefs are resolved against it. */
  readonly serviceUrl: string;
  /** Default `thumbnails`. */
  readonly choice?: ImageryChoice | undefined;
  /** Bytes the stored quicklooks may take (default DEFAULT_IMAGERY_BUDGET_BYTES). */
  readonly budgetBytes: number;
  readonly concurrency?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: ImageryProgress) => void) | undefined;
  /**
   * The service's client: with it, the index maps of mirrored visualizations are fetched first
   * (pull/index-maps.ts; the key goes to its service only). `mirror.sync` passes its own.
   */
  readonly client?: EoClient | undefined;
  /** For tests; never given credentials. */
  readonly fetch?: typeof fetch | undefined;
}

export interface ImageryProgress {
  readonly resource: 'imagery';
  /** Quicklooks this run dealt with (fetched, refused or failed) of `total` missing ones. */
  readonly seen: number;
  readonly total: number;
  readonly bytes: number;
}

export interface ImageryReport {
  /** Quicklooks the mirrored records have (asset with an href) for the chosen variants. */
  readonly wanted: number;
  /** Already stored and of the right size: not fetched. */
  readonly kept: number;
  readonly fetched: number;
  readonly fetchedBytes: number;
  /** Stored files that were missing or of the wrong size: deleted and fetched again. */
  readonly bad: number;
  /** 403 (expired or not signed): the records are re-read by the catalog's next (full) pass. */
  readonly expired: number;
  /** Not an http(s) URL: never fetched. */
  readonly refused: number;
  /** Network errors, other statuses, bodies that are not a PNG. */
  readonly failed: number;
  /** Not fetched: the budget is full. */
  readonly overBudget: number;
  /** Deleted to bring the store within the budget (least recently viewed first). */
  readonly evicted: number;
  readonly lastError: string | null;
  /** Index maps of mirrored visualizations; null when no client was given. */
  readonly indexMaps: IndexMapReport | null;
}

interface Wanted {
  readonly recordId: string;
  readonly variant: QuicklookVariant;
  readonly href: string;
}

/**
 * The quicklook hrefs wanted: first the archive scenes of the saved archive searches (asked for
 * by name, a few hundred each), then each catalog record's, newest acquisition first (what a
 * field team looks at first). A scene that is also a catalog record is fetched once.
 */
function wantedQuicklooks(sqlite: Database.Database, variants: readonly QuicklookVariant[]) {
  const wanted: Wanted[] = [];
  const keys = new Set<string>();
  const add = (recordId: string, assets: unknown) => {
    const byName = assets as Record<string, { href?: unknown } | undefined> | undefined;
    for (const variant of variants) {
      const href = byName?.[variant]?.href;
      const key = `${variant}\n${recordId}`;
      if (typeof href !== 'string' || href === '' || keys.has(key)) continue;
      keys.add(key);
      wanted.push({ recordId, variant, href });
    }
  };
  const scenes = sqlite
    .prepare<[], { id: string; json: string }>(
      'SELECT id, json FROM mirror_archive_scenes ORDER BY datetime_us DESC, id',
    )
    .all();
  // A STAC feature: `assets` at the top.
  for (const row of scenes) add(row.id, (JSON.parse(row.json) as { assets?: unknown }).assets);
  for (const row of makeCatalogRecordReader(sqlite, COMPACT_LAYOUT).newestFirst())
    add(row.id, (JSON.parse(row.json) as { details?: { assets?: unknown } }).details?.assets);
  return wanted;
}

/** The URL to fetch, or null when it is not http(s) (file:, s3:, data:... are never fetched). */
export function quicklookUrl(href: string, serviceUrl: string): URL | null {
  let url: URL;
  try {
    url = new URL(href, serviceUrl.endsWith('/') ? serviceUrl : `${serviceUrl}/`);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

export async function syncImagery(
  sqlite: Database.Database,
  store: ImageryStore,
  options: ImagerySyncOptions,
): Promise<ImageryReport> {
  const { signal, budgetBytes } = options;
  const doFetch = options.fetch ?? fetch;
  store.removeOrphans();
  const evicted = store.evictTo(budgetBytes);
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_IMAGERY_CONCURRENCY);
  // Index maps first: a handful of pictures of the team's own AOIs, asked for by name.
  const indexMaps = options.client
    ? await syncIndexMaps(sqlite, store, {
        client: options.client,
        budgetBytes,
        concurrency,
        signal,
      })
    : null;
  const wanted = wantedQuicklooks(sqlite, IMAGERY_VARIANTS[options.choice ?? 'thumbnails']);
  const missing: Wanted[] = [];
  let kept = 0;
  let bad = 0;
  for (const w of wanted) {
    const present = store.present(w.recordId, w.variant);
    if (present === true) kept++;
    else {
      if (present === 'bad') bad++;
      missing.push(w);
    }
  }
  const n = { fetched: 0, fetchedBytes: 0, expired: 0, refused: 0, failed: 0, overBudget: 0 };
  let lastError: string | null = null;
  let used = store.counts().bytes;
  let seen = 0;
  /** Set by the first picture that does not fit: the rest are not asked for (no churn). */
  let full = false;
  const progress = () =>
    options.onProgress?.({
      resource: 'imagery',
      seen,
      total: missing.length,
      bytes: n.fetchedBytes,
    });

  const one = async (w: Wanted): Promise<void> => {
    const url = quicklookUrl(w.href, options.serviceUrl);
    if (!url) {
      n.refused++;
      return;
    }
    if (full || used >= budgetBytes) {
      n.overBudget++;
      return;
    }
    let res: Response;
    try {
      // No headers at all: the signed URL is the permission (never the API key). A network
      // error is tried once more at once: a pooled keep-alive connection the far end closed
      // just as it was reused fails with no fault of the link (a GET is safe to repeat).
      res = await doFetch(url, { signal }).catch((e: unknown) => {
        if (signal?.aborted) throw e;
        return doFetch(url, { signal });
      });
    } catch (e) {
      if (signal?.aborted) throw e;
      n.failed++;
      lastError = `${url.pathname}: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    if (res.status === 403 || !res.ok) {
      await res.body?.cancel();
      if (res.status === 403) n.expired++;
      else {
        n.failed++;
        lastError = `${url.pathname}: HTTP ${res.status}`;
      }
      return;
    }
    const length = Number(res.headers.get('content-length') ?? 0);
    if (used + length > budgetBytes) {
      await res.body?.cancel();
      full = true;
      n.overBudget++;
      return;
    }
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await res.arrayBuffer());
    } catch (e) {
      if (signal?.aborted) throw e;
      n.failed++;
      lastError = `${url.pathname}: ${e instanceof Error ? e.message : String(e)}`;
      return;
    }
    if (!readPngHeader(bytes)) {
      n.failed++;
      lastError = `${url.pathname}: not a PNG`;
      return;
    }
    // Checked and stored in one synchronous step: concurrent downloads never overshoot.
    if (used + bytes.length > budgetBytes) {
      full = true;
      n.overBudget++;
      return;
    }
    store.put(w.recordId, w.variant, bytes);
    used += bytes.length;
    n.fetched++;
    n.fetchedBytes += bytes.length;
  };

  await mapBounded(missing, concurrency, signal, one, () => {
    seen++;
    progress();
  });
  if (n.expired > 0)
    // The stored records carry expired URLs: the catalog's next pass re-reads every record.
    sqlite
      .prepare("UPDATE sync_incremental SET last_full_at_us = NULL WHERE resource = 'catalogs'")
      .run();
  if (missing.length === 0) progress();
  return { wanted: wanted.length, kept, bad, evicted, ...n, lastError, indexMaps };
}

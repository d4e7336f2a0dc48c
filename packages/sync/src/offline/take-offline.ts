/**
 * Taking a site offline: a scene (a catalog record, an order item, or an AOI's scene asset), an
 * area and a resolution become a stored raster of that area (`offline_rasters`), over any link,
 * through any interruption:
 *
 *   requesting -> following -> fetching -> stored        (failed: with why; a later run resumes it)
 *        \-> unconfirmed (the create may be on a service that ignores the key: the user decides)
 *
 * 1. The download is asked for exactly once (request.ts) and followed to `success`.
 * 2. Its file is opened by one range read (remote-file.ts): no API key goes to its host.
 * 3. A Cloud-Optimized GeoTIFF: the tiles the area needs at the chosen level are read by ranges
 *    into the part file (window-read.ts) and the window is written as the stored GeoTIFF.
 *    Anything else (an archive, a GeoTIFF without tiles): the whole file, resumable, its size
 *    said before it starts (whole-file.ts).
 * 4. The file is stored in the imagery store's rasters folder under its budget (quicklooks are
 *    evicted to make room; rasters never are), with its size and hash.
 *
 * The same request again (same scene, area and resolution) resumes its row: what the journal
 * kept is kept, nothing is asked twice. A stored one is answered from the mirror. A failed one
 * (its download failed, or the service forgot it) is the same row again, with a new download
 * request under a new key (the old key would answer the failed download): its id stays, the
 * list shows one row, and its journal is kept (dropped if the new download's file differs).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { DownloadState, EoClient } from '@eo/api-client';
import { GeoTiffError, type GeoTiff } from '@eo/geotiff';
import type Database from 'better-sqlite3';
import { makeImageryStore } from '../mirror/imagery';
import type { SiteArea } from './area';
import { openPartFile } from './part-file';
import {
  ensureRastersDir,
  extensionOf,
  fileSha256,
  partFileName,
  promote,
  storedFileIntact,
  storedFileName,
} from './raster-files';
import { rasterOf, type OfflineRaster } from './rasters';
import {
  openRemoteFile,
  RangesUnsupported,
  RemoteFileChanged,
  signedFileUrl,
  SignedUrlExpired,
  type RangeTiming,
  type RemoteFile,
} from './remote-file';
import { followDownload, requestDownload, type FollowOptions } from './request';
import {
  makeOfflineRasterStore,
  type OfflineRasterRow,
  type OfflineRasterStore,
  type SceneKind,
} from './store';
import { fetchWholeFile } from './whole-file';
import { fetchWindow, openCog, planSite, writeWindow } from './window-read';

/** What the first read of a file asks for: a COG's header and first IFDs fit (GDAL's layout). */
export const HEADER_BYTES = 16 * 1024;

export type Resolution = 'native' | { readonly metres: number };

export interface SiteRequest {
  readonly scene: { readonly kind: SceneKind; readonly id: string; readonly aoiId?: string };
  readonly area: SiteArea;
  readonly resolution: Resolution;
}

export type OfflineProgress =
  | { readonly phase: 'requesting'; readonly rasterId: string }
  | { readonly phase: 'waiting'; readonly downloadId: string; readonly status: string }
  | { readonly phase: 'opening'; readonly host: string }
  | {
      readonly phase: 'planned';
      readonly level: number;
      /** Metres per pixel at that level. */
      readonly pixelSize: number;
      readonly width: number;
      readonly height: number;
      readonly tiles: number;
      /** Bytes to fetch (tiles not kept yet). */
      readonly bytes: number;
    }
  | {
      readonly phase: 'tiles';
      readonly done: number;
      readonly total: number;
      readonly bytes: number;
    }
  | { readonly phase: 'writing' }
  | {
      readonly phase: 'whole-file';
      /** Why the whole file: what it is instead of a COG. */
      readonly reason: string;
      readonly bytes: number;
      readonly contentType: string | null;
    }
  | { readonly phase: 'file'; readonly have: number; readonly bytes: number }
  | { readonly phase: 'stored'; readonly raster: OfflineRaster };

export interface TakeOfflineOptions extends Pick<
  FollowOptions,
  'pollMs' | 'maxPollMs' | 'maxWaitMs'
> {
  readonly client: EoClient;
  /** The service's URL: a root-relative signed URL is resolved against it. */
  readonly serviceUrl: string;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: OfflineProgress) => void) | undefined;
  /** The imagery budget (quicklooks and rasters together). */
  readonly budgetBytes: number;
  /** An unconfirmed request: send it again / the download the service made. */
  readonly resend?: boolean | undefined;
  readonly downloadId?: string | undefined;
  /** For tests; never given credentials. */
  readonly fetch?: typeof fetch | undefined;
  /** The wait before a read is tried again (tests shorten it). */
  readonly sleep?: ((ms: number) => Promise<void>) | undefined;
}

export class OfflineError extends Error {
  constructor(
    message: string,
    readonly raster: OfflineRaster | null,
  ) {
    super(message);
    this.name = 'OfflineError';
  }
}

const resolutionText = (r: Resolution) => (r === 'native' ? 'native' : `${r.metres}m`);

/** The latest row of the same request (unfinished, stored or failed), so a second run resumes it. */
function sameRequest(
  sqlite: Database.Database,
  req: SiteRequest,
  areaJson: string,
): OfflineRasterRow | undefined {
  return sqlite
    .prepare<[string, string, string, string], OfflineRasterRow>(
      `SELECT * FROM offline_rasters WHERE scene_kind = ? AND scene_ref = ? AND area_json = ?
         AND resolution = ? ORDER BY created_at_us DESC LIMIT 1`,
    )
    .get(req.scene.kind, req.scene.id, areaJson, resolutionText(req.resolution));
}

/** The file of the download that holds our scene. */
function fileOf(row: OfflineRasterRow, d: DownloadState): { url: string; sceneId: string | null } {
  if (d.files.length === 0)
    return { url: d.signedUrl!, sceneId: row.scene_kind === 'catalog' ? row.scene_ref : null };
  const mine =
    row.scene_kind === 'catalog' ? d.files.find((f) => f.sceneId === row.scene_ref) : undefined;
  if (mine) return { url: mine.signedUrl, sceneId: mine.sceneId };
  if (d.files.length === 1) return { url: d.files[0]!.signedUrl, sceneId: d.files[0]!.sceneId };
  throw new Error(
    `download ${d.id} holds ${d.files.length} scenes (${d.files.map((f) => f.sceneId).join(', ')}): take one of them offline by its catalog id`,
  );
}

export async function takeOffline(
  db: { readonly sqlite: Database.Database; readonly file: string },
  req: SiteRequest,
  options: TakeOfflineOptions,
): Promise<OfflineRaster> {
  const store = makeOfflineRasterStore(db.sqlite);
  const view = (r: OfflineRasterRow) => rasterOf(r, db.file);
  const areaJson = JSON.stringify(req.area.geometry);
  let row = sameRequest(db.sqlite, req, areaJson);
  if (row?.state === 'stored') {
    const file = path.join(ensureRastersDir(db.file), row.file!);
    if (storedFileIntact(file, row.bytes!, row.sha256!)) return view(row);
    // Damaged or gone: fetched again (the download is read again for a fresh URL).
    fs.rmSync(file, { force: true });
    row = store.update(row.id, { state: 'following', file: null, bytes: null, sha256: null });
  }
  if (row?.state === 'failed')
    row = store.update(row.id, {
      state: 'requesting',
      download_id: null,
      request_sent: 0,
      idempotency_key: randomUUID(),
      message: null,
    });
  row ??= store.create({
    id: `off_${randomUUID()}`,
    scene_kind: req.scene.kind,
    scene_ref: req.scene.id,
    aoi_id: req.scene.aoiId ?? null,
    scene_id: req.scene.kind === 'catalog' ? req.scene.id : null,
    area_json: areaJson,
    area_label: req.area.label,
    resolution: resolutionText(req.resolution),
    idempotency_key: randomUUID(),
  });
  const rasterId = row.id;
  options.onProgress?.({ phase: 'requesting', rasterId });
  try {
    row = await requestDownload(options.client, store, row, options);
    const follow = () =>
      followDownload(options.client, store, row!, {
        ...options,
        onStatus: (d) =>
          options.onProgress?.({
            phase: 'waiting',
            downloadId: d.id,
            status: d.rawStatus ?? d.status,
          }),
      });
    let download = await follow();
    // A signed URL refused (expired between runs): the download is read again, once.
    let file: RemoteFile;
    let head: Uint8Array;
    let headTiming: RangeTiming;
    for (let tries = 1; ; tries++) {
      const target = fileOf(row, download);
      const url = signedFileUrl(target.url, options.serviceUrl);
      if (!url) throw new Error(`download ${download.id}: its signed_url is not an http(s) URL`);
      row = store.update(rasterId, { scene_id: target.sceneId ?? row.scene_id, state: 'fetching' });
      options.onProgress?.({ phase: 'opening', host: url.host });
      const expect =
        row.source_bytes === null ? undefined : { etag: row.source_etag, size: row.source_bytes };
      try {
        ({ file, head, headTiming } = await openRemoteFile(url, HEADER_BYTES, {
          fetch: options.fetch,
          signal: options.signal,
          expect,
        }));
        break;
      } catch (e) {
        if (e instanceof SignedUrlExpired && tries < 2) {
          download = await follow();
          continue;
        }
        if (e instanceof RemoteFileChanged && expect) {
          // Another file than the one begun: start again from nothing.
          store.dropParts(rasterId);
          row = store.update(rasterId, { source_etag: null, source_bytes: null, fetched_bytes: 0 });
          continue;
        }
        if (e instanceof RangesUnsupported) throw new Error(`${e.message}: it cannot be read here`);
        throw e;
      }
    }
    row = store.update(rasterId, {
      source_etag: file.info.etag,
      source_bytes: file.info.size,
      fetched_bytes: row.fetched_bytes + file.fetchedBytes,
    });
    const headBytes = file.fetchedBytes;
    const opened = await openCog(file, head);
    row =
      'tiff' in opened
        ? await storeSite(
            db,
            store,
            row,
            { file, tiff: opened.tiff, headTiming, headBytes },
            req,
            options,
          )
        : await storeWholeFile(db, store, row, { file, headBytes }, opened.notCog, options);
    const stored = view(row);
    options.onProgress?.({ phase: 'stored', raster: stored });
    return stored;
  } catch (e) {
    const now = store.get(rasterId);
    const message = e instanceof Error ? e.message : String(e);
    if (now && now.state !== 'failed' && now.state !== 'unconfirmed')
      store.update(rasterId, { message });
    throw new OfflineError(message, now ? view(store.get(rasterId)!) : null);
  }
}

/** The fallback: the whole file, its size said first, resumable, checked into the budget. */
async function storeWholeFile(
  db: { readonly sqlite: Database.Database; readonly file: string },
  store: ReturnType<typeof makeOfflineRasterStore>,
  rowIn: OfflineRasterRow,
  source: { readonly file: RemoteFile; readonly headBytes: number },
  reason: string,
  options: TakeOfflineOptions,
): Promise<OfflineRasterRow> {
  const { file } = source;
  let row = rowIn;
  const size = file.info.size;
  options.onProgress?.({
    phase: 'whole-file',
    reason,
    bytes: size,
    contentType: file.info.contentType,
  });
  row = store.update(row.id, {
    mode: 'whole',
    planned_bytes: size,
    message: `the download's file is ${reason}: stored whole (${size} bytes), not as a window of the site`,
  });
  makeRoom(db, store, size, options.budgetBytes, 'the file');
  const dir = ensureRastersDir(db.file);
  const partPath = path.join(dir, partFileName(row.id));
  const part = openPartFile(store, row.id, partPath);
  const before = row.fetched_bytes - source.headBytes;
  try {
    await fetchWholeFile(file, part, {
      signal: options.signal,
      sleep: options.sleep,
      onProgress: (have, bytes) => options.onProgress?.({ phase: 'file', have, bytes }),
    });
  } finally {
    part.close();
    row = store.update(row.id, { fetched_bytes: before + file.fetchedBytes });
  }
  const name = storedFileName(row.id, extensionOf(file.info.contentType, file.url));
  const final = path.join(dir, name);
  promote(partPath, final);
  const sha256 = fileSha256(final);
  db.sqlite.transaction(() => {
    store.dropParts(row.id);
    row = store.update(row.id, {
      state: 'stored',
      file: name,
      bytes: size,
      sha256,
      stored_at_us: Date.now() * 1000,
    });
  })();
  return row;
}

/**
 * Room for `bytes` more in the imagery budget: offline rasters are never evicted (a site taken
 * offline on purpose), quicklooks are (they can be fetched again). Too big: said before a byte
 * is fetched.
 */
function makeRoom(
  db: { readonly sqlite: Database.Database; readonly file: string },
  store: OfflineRasterStore,
  bytes: number,
  budgetBytes: number,
  what: string,
): void {
  const rasterBytes = store.storedBytes();
  if (rasterBytes + bytes > budgetBytes)
    throw new Error(
      `${what} (${bytes} bytes) does not fit the imagery budget (${budgetBytes} bytes, ${rasterBytes} taken by offline rasters)`,
    );
  makeImageryStore(db.sqlite, db.file).evictTo(budgetBytes - bytes);
}

/** The site's window of a COG: tiles by ranges into the part file, then the stored GeoTIFF. */
async function storeSite(
  db: { readonly sqlite: Database.Database; readonly file: string },
  store: OfflineRasterStore,
  rowIn: OfflineRasterRow,
  source: {
    readonly file: RemoteFile;
    readonly tiff: GeoTiff;
    readonly headTiming: RangeTiming;
    /** The file's bytes already counted in the row (the first read). */
    readonly headBytes: number;
  },
  req: SiteRequest,
  options: TakeOfflineOptions,
): Promise<OfflineRasterRow> {
  const { file, tiff } = source;
  let row = rowIn;
  let planned;
  try {
    planned = planSite(tiff, req.area.geometry, req.resolution);
  } catch (e) {
    if (e instanceof GeoTiffError && e.code === 'argument')
      throw new Error(
        `the area does not meet scene ${row.scene_id ?? row.scene_ref}: ${e.message}`,
      );
    throw e;
  }
  const { plan, pieces } = planned;
  const headerBytes = file.fetchedBytes;
  const pieceBytes = pieces.reduce((s, p) => s + p.length, 0);
  // The stored file: the tiles, a third more for the overviews, and its header.
  makeRoom(db, store, Math.ceil(pieceBytes * (4 / 3)) + 65_536, options.budgetBytes, 'the site');
  const dir = ensureRastersDir(db.file);
  const partPath = path.join(dir, partFileName(row.id));
  const part = openPartFile(store, row.id, partPath);
  // The row counts the file's bytes so far (its head); the reader counts every byte it fetched.
  const before = row.fetched_bytes - source.headBytes;
  try {
    row = store.update(row.id, {
      mode: 'window',
      level: plan.level,
      planned_bytes: headerBytes + pieceBytes,
      message: null,
    });
    const missing = pieces.filter((p) => !part.pieces.has(p.name));
    options.onProgress?.({
      phase: 'planned',
      level: plan.level,
      pixelSize: planned.pixelSize,
      width: plan.pixelWindow.width,
      height: plan.pixelWindow.height,
      tiles: pieces.length,
      bytes: missing.reduce((s, p) => s + p.length, 0),
    });
    await fetchWindow(file, part, planned, {
      signal: options.signal,
      sleep: options.sleep,
      seed: source.headTiming,
      onPiece: (done, total) =>
        options.onProgress?.({ phase: 'tiles', done, total, bytes: file.fetchedBytes }),
    });
    options.onProgress?.({ phase: 'writing' });
    const written = await writeWindow(
      tiff,
      planned,
      part,
      file.url,
      path.join(dir, storedFileName(row.id, '.tif')),
    );
    part.close();
    fs.rmSync(partPath, { force: true });
    const sha256 = fileSha256(path.join(dir, written.file));
    db.sqlite.transaction(() => {
      store.dropParts(row.id);
      row = store.update(row.id, {
        state: 'stored',
        epsg: tiff.epsg,
        bounds_json: JSON.stringify(written.bounds),
        width: written.width,
        height: written.height,
        bands_json: JSON.stringify(tiff.bandNames),
        nodata: tiff.nodata,
        file: written.file,
        bytes: written.bytes,
        sha256,
        fetched_bytes: before + file.fetchedBytes,
        stored_at_us: Date.now() * 1000,
      });
    })();
    return row;
  } finally {
    try {
      part.close();
    } catch {
      // closed already (stored)
    }
    if (store.get(row.id)?.state !== 'stored')
      store.update(row.id, { fetched_bytes: before + file.fetchedBytes });
  }
}

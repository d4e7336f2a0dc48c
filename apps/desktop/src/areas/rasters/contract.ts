/**
 * Offline rasters: sites taken offline at full resolution (a window of a scene's COG, stored by
 * @eo/sync in the stored raster format of @eo/geotiff), listed with what the map needs to place
 * them before their bytes are read. Their bytes go by range requests on the raster URLs
 * (`shared/raster-paths.ts`), not through the contract.
 */
import { AreaGeometryInput } from '@eo/domain';
import { z } from 'zod';
import { id, none } from '../../shared/contract/fields';

const finite = z.number().finite();
const count = z.number().int().min(0);
/** [west, south, east, north] in degrees. */
const lonLatBox = z.tuple([finite, finite, finite, finite]);

/** One band of the raster, as its metadata names it (the stored format's band items). */
export const RasterBandView = z.object({
  name: z.string(),
  /** STAC `eo:common_name` (`red`, `nir`...), when the file says. */
  commonName: z.string().nullable(),
  wavelengthNm: finite.nullable(),
});
export type RasterBandView = z.infer<typeof RasterBandView>;

/** What the stored file's header says (read by the backend once per file). */
export const StoredRasterInfo = z.object({
  epsg: z.number().int().nullable(),
  width: count,
  height: count,
  /** GDAL order: [originX, pixelWidth, rowRotation, originY, columnRotation, pixelHeight]. */
  geoTransform: z.tuple([finite, finite, finite, finite, finite, finite]),
  /** The raster's outline in lon/lat: its box, from the four corners and the edges' middles. */
  bounds: lonLatBox,
  /** Full resolution then overviews. */
  levels: z.array(z.object({ width: count, height: count })),
  bands: z.array(RasterBandView),
  nodata: finite.nullable(),
  /** The scene's items: STAC id, acquisition instant (ISO 8601), platform, collection. */
  sceneId: z.string().nullable(),
  datetime: z.string().nullable(),
  satellite: z.string().nullable(),
  collection: z.string().nullable(),
  cloudCover: finite.nullable(),
  /** Pixel size of the stored level, metres. */
  resolutionM: finite.nullable(),
});
export type StoredRasterInfo = z.infer<typeof StoredRasterInfo>;

export const OfflineRasterView = z.object({
  id: z.string(),
  /** `stored` once its file is complete; otherwise what @eo/sync says (in progress, failed...). */
  state: z.string(),
  /** The scene as the user named it (catalog record, order item, AOI asset) and as stored. */
  scene: z.object({
    kind: z.string(),
    ref: z.string(),
    sceneId: z.string().nullable(),
  }),
  /** The site: what the user chose ("AOI Field 7", "Drawn shape", "2 km around 46.2, 6.1"). */
  areaLabel: z.string(),
  /** `native` or `<N>m`, as asked. */
  resolution: z.string(),
  bytes: count.nullable(),
  plannedBytes: count.nullable(),
  fetchedBytes: count,
  /** Why it failed, or what to know about it. */
  message: z.string().nullable(),
  /** Epoch milliseconds. */
  createdAt: count,
  storedAt: count.nullable(),
  /** The stored file's header; null until stored, or when the file cannot be read (`problem`). */
  raster: StoredRasterInfo.nullable(),
  problem: z.string().nullable(),
});
export type OfflineRasterView = z.infer<typeof OfflineRasterView>;

/** The imagery budget (Settings): quicklooks and offline rasters share it. */
export const ImageryBudgetView = z.object({
  limitBytes: count,
  /** Quicklooks (evicted to make room) plus stored offline rasters (never evicted). */
  usedBytes: count,
  quicklookBytes: count,
});
export type ImageryBudgetView = z.infer<typeof ImageryBudgetView>;

export const OfflineRasterList = z.object({
  rasters: z.array(OfflineRasterView),
  /** Bytes of every stored offline raster. */
  bytes: count,
  budget: ImageryBudgetView.optional(),
});
export type OfflineRasterList = z.infer<typeof OfflineRasterList>;

/** The area of a site to take offline: a shape (an AOI, the map view, a drawn one), or a buffer. */
export const SiteAreaInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('shape'),
      geometry: AreaGeometryInput,
      label: z.string().trim().min(1).max(200),
    })
    .strict(),
  z
    .object({
      kind: z.literal('around'),
      lon: finite.min(-180).max(180),
      lat: finite.min(-85).max(85),
      radiusM: finite.positive().max(50_000),
    })
    .strict(),
]);
export type SiteAreaInput = z.infer<typeof SiteAreaInput>;

export const TakeOfflineInput = z
  .object({
    scene: z
      .object({
        kind: z.enum(['catalog', 'order_item', 'aoi_asset']),
        id,
        aoiId: id.optional(),
      })
      .strict(),
    area: SiteAreaInput,
    /** `native`, or metres per pixel (the finest overview at most that size is taken). */
    resolution: z.union([z.literal('native'), z.object({ metres: finite.positive() }).strict()]),
  })
  .strict();
export type TakeOfflineInput = z.infer<typeof TakeOfflineInput>;

/** A take running in the backend: its latest step (rasters.takes). */
export const OfflineTakeView = z.object({
  key: z.string(),
  /** The offline raster's row, once @eo/sync made it (what `rasters.resume` takes up). */
  rasterId: z.string().nullable().optional(),
  sceneId: z.string(),
  areaLabel: z.string(),
  /**
   * requesting, waiting, opening, planned, tiles, writing, whole-file, file, then stored,
   * failed, paused (kept: `rasters.resume` goes on) or cancelled (removed).
   */
  phase: z.string(),
  /** Tiles (or bytes of a whole file) done and to do; bytes fetched. */
  done: count.nullable(),
  total: count.nullable(),
  bytes: count.nullable(),
  plannedBytes: count.nullable(),
  error: z.string().nullable(),
  startedAt: count,
});
export type OfflineTakeView = z.infer<typeof OfflineTakeView>;

/**
 * A stored raster as a GeoTIFF to save: its window as stored (every band, as the service
 * serves them), or an index over it as float32 (one band per component, NaN = nodata). The
 * index is the one the map draws: its expression and which raster band each of its bands reads.
 */
export const RasterExportRequest = z.discriminatedUnion('what', [
  z.object({ id, what: z.literal('window') }).strict(),
  z
    .object({
      id,
      what: z.literal('index'),
      index: z
        .object({
          name: z.string().trim().min(1).max(200),
          expression: z.string().trim().min(1).max(2000),
          /** Raster band (0-based) of each band the expression names, in its order. */
          bandMap: z.array(z.number().int().min(0).max(1023)).min(1).max(64),
        })
        .strict(),
    })
    .strict(),
]);
export type RasterExportRequest = z.input<typeof RasterExportRequest>;

export const ExportedRaster = z.object({
  /** A name to save it under ("field-7-2026-05-21-ndvi.tif"). */
  fileName: z.string(),
  mediaType: z.string(),
  bytes: count,
  /**
   * The written file for the download route (browser mode: `shared/raster-paths.ts`); main
   * saves it itself (Electron).
   */
  exportId: z.string(),
  /**
   * Electron: where main saved it, or null when the save dialog was cancelled. Absent in
   * browser mode: the page downloads it from the export route.
   */
  savedTo: z.string().nullable().optional(),
});
export type ExportedRaster = z.infer<typeof ExportedRaster>;

/**
 * The link to the service as measured (link-meter.ts in the backend): the round trip from the
 * service's answers (the pager's `wait`), the rate from raster range reads (bytes as sent), else
 * from large service answers by their wire size. Null fields: not measured yet.
 */
export const LinkView = z.object({
  bitsPerSecond: finite.positive().nullable(),
  roundTripMs: finite.min(0).nullable(),
  /** What the rate was measured on. */
  rateFrom: z.enum(['raster reads', 'service answers']).nullable(),
  samples: count,
  /** Epoch milliseconds of the newest sample. */
  measuredAt: count,
});
export type LinkView = z.infer<typeof LinkView>;

export const rastersMethods = {
  'rasters.list': { input: none, output: OfflineRasterList },
  'rasters.remove': {
    input: z.object({ id }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
  /** Starts taking a site offline (answers at once; rasters.takes follows it). */
  'rasters.take': { input: TakeOfflineInput, output: z.object({ key: z.string() }) },
  'rasters.takes': { input: none, output: z.object({ takes: z.array(OfflineTakeView) }) },
  /** Stops a take and removes what it fetched (its raster row and part file). */
  'rasters.cancel': {
    input: z.object({ key: z.string().max(4000) }).strict(),
    output: z.object({ cancelled: z.boolean() }),
  },
  /** A stored raster or an index over it written as a GeoTIFF (the bytes never cross the bridge). */
  'rasters.export': { input: RasterExportRequest, output: ExportedRaster },
  /** Stops a take and keeps what it fetched (the part file's journal): `rasters.resume` goes on. */
  'rasters.pause': {
    input: z.object({ key: z.string().max(4000) }).strict(),
    output: z.object({ paused: z.boolean() }),
  },
  /** Takes up an unfinished offline raster (paused, or cut by a quit or a crash) where it stopped. */
  'rasters.resume': { input: z.object({ id }).strict(), output: z.object({ key: z.string() }) },
  /** The link as measured, for the size and time a take will need. */
  'rasters.link': { input: none, output: z.object({ link: LinkView.nullable() }) },
} as const;

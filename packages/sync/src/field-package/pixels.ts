/**
 * Offline rasters in a field package (`--pixels`): the files the mirror downloaded for its
 * records (sites taken offline, `src/offline/`), carried beside the records in `eo_rasters`
 * (each with the mirror's own row of it) and `eo_raster_parts` (16 MB parts: SQLite keeps no
 * value over 1 GB, and a part at a time bounds the memory either way), checked by size and
 * SHA-256 when they come in.
 *
 * Where they come from and go to is behind `PixelSource` and `PixelSink`: the mirror's offline
 * rasters (`offline/package-rasters.ts`, what `openMirror` and the CLI use), or `NO_PIXELS`
 * (asked for, the plan says none are available).
 */
import type { Selected } from './selection';

/** One offline raster of a record. */
export interface RasterFile {
  /** The scene (catalog record or archive scene) it holds. */
  readonly recordId: string;
  /** Its name in the mirror (the offline raster's id). */
  readonly name: string;
  /** `image/tiff`, ... (from the stored file's extension) */
  readonly mediaType: string;
  readonly bytes: number;
  readonly sha256: string;
  /** What the mirror keeps of it besides the file (area, resolution, CRS, bands...), as JSON. */
  readonly row: string;
}

/** Rasters the mirror holds, and their bytes part by part. */
export interface PixelSource {
  /** Whether the mirror keeps offline rasters at all. */
  readonly available: boolean;
  /** The rasters of these records (each record's, in a stable order). */
  list(recordIds: readonly string[]): RasterFile[];
  /** The raster's bytes in order, in parts of at most `partBytes`. */
  read(file: RasterFile, partBytes: number): Iterable<Uint8Array>;
}

/** Where rasters from a package go: written part by part, then kept once checked. */
export interface PixelSink {
  /** Whether the mirror already holds this raster (then the package's is not taken). */
  has(file: RasterFile): boolean;
  /** Stores a raster whose parts, in order, were checked against its size and SHA-256. */
  put(file: RasterFile, parts: Iterable<Uint8Array>): void;
}

/** What a plan says of the rasters. */
export interface PixelsPlan {
  /** `--pixels` was given. */
  readonly asked: boolean;
  /** The mirror keeps rasters at all. */
  readonly available: boolean;
  readonly count: number;
  readonly bytes: number;
}

/** A mirror that keeps no offline rasters. */
export const NO_PIXELS: PixelSource & PixelSink = {
  available: false,
  list: () => [],
  read: () => [],
  has: () => false,
  put: () => {
    throw new Error('this mirror keeps no offline rasters');
  },
};

/** Size of one stored part. */
export const RASTER_PART_BYTES = 16 * 1024 * 1024;

/** The rasters of the selected catalog records and archive scenes. */
export function rastersOf(source: PixelSource, selected: Selected): RasterFile[] {
  return source.list([...selected.ids.catalogs, ...selected.ids.archiveScenes]);
}

export function pixelsPlan(source: PixelSource, selected: Selected | null): PixelsPlan {
  if (selected === null) return { asked: false, available: source.available, count: 0, bytes: 0 };
  const files = rastersOf(source, selected);
  return {
    asked: true,
    available: source.available,
    count: files.length,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
  };
}

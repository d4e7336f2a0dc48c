/**
 * Planning a window read: for an area in the raster's CRS (a bbox or a GeoJSON geometry) and a
 * level, the tiles that intersect it, the byte ranges to fetch (adjacent tiles merged when
 * the gap between them is at most `gapBytes`), and what the header cost.
 */
import { geometryBbox, geometryIntersects, type Geometry } from '@eo/domain';
import { fail } from '../errors';
import { mapToPixel, pixelToMap, windowTransform, type GeoTransform } from '../geo';
import type { GeoTiff, PixelWindow } from '../read/geotiff';

/** An area in the raster's CRS: a bounding box [minX, minY, maxX, maxY] or a geometry. */
export type WindowArea =
  { readonly bbox: readonly [number, number, number, number] } | { readonly geometry: Geometry };

export interface PlannedTile {
  readonly x: number;
  readonly y: number;
  /** Where its stored bytes are in the source; 0 and 0 when the source has it sparse. */
  readonly offset: number;
  readonly byteCount: number;
}

export interface ByteRange {
  readonly offset: number;
  readonly length: number;
  /** Indexes into `WindowPlan.tiles` of the tiles it holds. */
  readonly tiles: readonly number[];
}

export interface WindowPlan {
  readonly level: number;
  /** The rectangle of the intersecting tiles, in tiles of the level: [x0, x1) x [y0, y1). */
  readonly tileBox: {
    readonly x0: number;
    readonly y0: number;
    readonly x1: number;
    readonly y1: number;
  };
  /** The same rectangle in pixels of the level (clipped to the level at its right and bottom edges). */
  readonly pixelWindow: PixelWindow;
  /** Map coordinates of the window's pixels. */
  readonly geoTransform: GeoTransform;
  /** The tiles that intersect the area, row-major (those of the rectangle that do not are absent). */
  readonly tiles: readonly PlannedTile[];
  /** What to fetch, by offset. */
  readonly ranges: readonly ByteRange[];
  /** Sum of the tiles' stored bytes. */
  readonly tileBytes: number;
  /** Sum of the ranges' lengths (the tiles plus the gaps merged over). */
  readonly rangeBytes: number;
  /** Bytes before the tile data (header, IFDs, their values) and the reads opening took. */
  readonly headerBytes: number;
  readonly headerReads: number;
}

export interface PlanOptions {
  readonly level: number;
  readonly area: WindowArea;
  /** Merge two tiles' ranges when at most this many bytes lie between them (default 1 KiB). */
  readonly gapBytes?: number;
  /** Never merge a range past this many bytes (default: no cap). */
  readonly maxRangeBytes?: number;
}

export const DEFAULT_GAP_BYTES = 1024;

/** The finest level whose pixels are no larger than `metres` (0 when even the full resolution is coarser). */
export function levelForResolution(tiff: GeoTiff, metres: number): number {
  let best = 0;
  tiff.levels.forEach((l, i) => {
    const gt = l.geoTransform;
    if (gt && Math.hypot(gt[1], gt[4]) <= metres * (1 + 1e-9)) best = i;
  });
  return best;
}

function areaBbox(area: WindowArea): [number, number, number, number] {
  if ('bbox' in area) {
    const [a, b, c, d] = area.bbox;
    if (![a, b, c, d].every(Number.isFinite) || c < a || d < b)
      fail('argument', `bbox ${area.bbox.join(',')}`);
    return [a, b, c, d];
  }
  const bb = geometryBbox(area.geometry);
  if (!bb) fail('argument', 'the area is an empty geometry');
  return [bb[0], bb[1], bb[2], bb[3]];
}

/** The tile's outline in map coordinates (a parallelogram when the transform is rotated). */
function tilePolygon(gt: GeoTransform, c0: number, r0: number, c1: number, r1: number): Geometry {
  const ring = [
    pixelToMap(gt, c0, r0),
    pixelToMap(gt, c1, r0),
    pixelToMap(gt, c1, r1),
    pixelToMap(gt, c0, r1),
    pixelToMap(gt, c0, r0),
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

/** Merges the tiles' byte spans into ranges. */
export function mergeRanges(
  tiles: readonly PlannedTile[],
  gapBytes = DEFAULT_GAP_BYTES,
  maxRangeBytes = Infinity,
): ByteRange[] {
  const order = tiles
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => t.byteCount > 0)
    .sort((a, b) => a.t.offset - b.t.offset);
  const out: { offset: number; end: number; tiles: number[] }[] = [];
  for (const { t, i } of order) {
    const last = out[out.length - 1];
    const end = t.offset + t.byteCount;
    if (last && t.offset - last.end <= gapBytes && end - last.offset <= maxRangeBytes) {
      last.end = Math.max(last.end, end);
      last.tiles.push(i);
    } else out.push({ offset: t.offset, end, tiles: [i] });
  }
  return out.map((r) => ({ offset: r.offset, length: r.end - r.offset, tiles: r.tiles }));
}

/** Plans the read of the tiles of `level` that intersect `area`. Throws when none does. */
export function planWindow(tiff: GeoTiff, opts: PlanOptions): WindowPlan {
  const l = tiff.level(opts.level);
  const gt = l.geoTransform;
  if (!gt) fail('argument', 'the raster has no georeferencing: there is no area to plan for');
  const [minX, minY, maxX, maxY] = areaBbox(opts.area);
  const corners = [
    mapToPixel(gt, minX, minY),
    mapToPixel(gt, maxX, minY),
    mapToPixel(gt, minX, maxY),
    mapToPixel(gt, maxX, maxY),
  ];
  const cMin = Math.min(...corners.map((p) => p[0]));
  const cMax = Math.max(...corners.map((p) => p[0]));
  const rMin = Math.min(...corners.map((p) => p[1]));
  const rMax = Math.max(...corners.map((p) => p[1]));
  const tx0 = Math.max(0, Math.floor(cMin / l.tileWidth));
  const tx1 = Math.min(l.tilesAcross - 1, Math.floor(cMax / l.tileWidth));
  const ty0 = Math.max(0, Math.floor(rMin / l.tileHeight));
  const ty1 = Math.min(l.tilesDown - 1, Math.floor(rMax / l.tileHeight));
  const geometry = 'geometry' in opts.area ? opts.area.geometry : null;
  const tiles: PlannedTile[] = [];
  for (let ty = ty0; ty <= ty1; ty++)
    for (let tx = tx0; tx <= tx1; tx++) {
      const c0 = tx * l.tileWidth;
      const r0 = ty * l.tileHeight;
      const c1 = Math.min(l.width, c0 + l.tileWidth);
      const r1 = Math.min(l.height, r0 + l.tileHeight);
      // A bbox meets every tile of its pixel rectangle (north-up); a geometry is tested.
      if (geometry && !geometryIntersects(tilePolygon(gt, c0, r0, c1, r1), geometry)) continue;
      tiles.push({ x: tx, y: ty, ...tiff.tileRange(opts.level, tx, ty) });
    }
  if (tiles.length === 0)
    fail('argument', `the area does not meet level ${opts.level} of the raster`);
  const x0 = Math.min(...tiles.map((t) => t.x));
  const x1 = Math.max(...tiles.map((t) => t.x)) + 1;
  const y0 = Math.min(...tiles.map((t) => t.y));
  const y1 = Math.max(...tiles.map((t) => t.y)) + 1;
  const ranges = mergeRanges(tiles, opts.gapBytes, opts.maxRangeBytes);
  const px = x0 * l.tileWidth;
  const py = y0 * l.tileHeight;
  return {
    level: opts.level,
    tileBox: { x0, y0, x1, y1 },
    pixelWindow: {
      x: px,
      y: py,
      width: Math.min(l.width, x1 * l.tileWidth) - px,
      height: Math.min(l.height, y1 * l.tileHeight) - py,
    },
    geoTransform: windowTransform(gt, px, py),
    tiles,
    ranges,
    tileBytes: tiles.reduce((s, t) => s + t.byteCount, 0),
    rangeBytes: ranges.reduce((s, r) => s + r.length, 0),
    headerBytes: tiff.dataOffset,
    headerReads: tiff.headerReads,
  };
}

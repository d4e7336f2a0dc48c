/**
 * What the raster worker does, without the worker around it (so Node tests run it as it is):
 * open offline rasters over a range source, paint map tiles from them (band combinations with
 * their stretch, or an index through its ramp), compute the default stretch and an index's
 * range from the window, and read every band and the index at a point (the pixel inspector).
 */
import type { RangeSource } from '@eo/geotiff';
import { REFLECTANCE, SAMPLE_BYTES } from '@eo/geotiff';
import {
  levelForTile,
  pixelBox,
  pixelOfLonLat,
  tileToPixels,
  type MapTile,
  type RasterPlacement,
} from './raster-grid';
import { indexOfPixel, indexOfTile, kernelOf, type BandScale } from '../../../shared/raster-index';
import { paintBands, paintIndex, type IndexTile, type PaintLevel } from './raster-paint';
import {
  histogramPercentiles,
  rampLut,
  STRETCH_PERCENTILES,
  stretchLut,
  styleKey,
  valuePercentiles,
  type IndexStyle,
  type RasterStyle,
} from './raster-style';
import { OpenRaster, TILE_CACHE_BYTES, TileCache, type DecodedTile } from './raster-source';
import {
  ReadAhead,
  readAheadPlan,
  type ReadAheadResult,
  type SourceTile,
  type ViewArea,
} from './raster-read-ahead';

/** What the map and the panels need to know of an open raster. */
export interface RasterInfo {
  readonly placement: RasterPlacement;
  readonly levels: readonly {
    width: number;
    height: number;
    tileWidth: number;
    tileHeight: number;
  }[];
  readonly bandCount: number;
  readonly nodata: number | null;
  readonly scales: readonly BandScale[];
}

/** A band's default stretch: its 2nd and 98th percentile, and its range, in raw values. */
export interface BandStats {
  readonly low: number;
  readonly high: number;
  readonly min: number;
  readonly max: number;
}

/** Every band's value (raw), and the index's, at a point of the full resolution. */
export interface PixelReading {
  readonly col: number;
  readonly row: number;
  readonly raw: number[];
  /** The index's components there (NaN: undefined, nodata), when an index was asked. */
  readonly index: number[] | null;
}

/** Tile positions of a box, row-major. */
function positions(tx0: number, ty0: number, tx1: number, ty1: number): [number, number][] {
  const out: [number, number][] = [];
  for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) out.push([tx, ty]);
  return out;
}

/** Pixels of the level the statistics are computed from (the finest at most this large). */
export const STATS_PIXELS = 1 << 20;
/** Bytes of index values kept (per tile and expression). */
const INDEX_CACHE_BYTES = 96 * 1024 * 1024;
/** Share of the decoded tiles' budget one raster's read-ahead may fill (the view keeps the rest). */
const READ_AHEAD_SHARE = 3 / 8;

export class RasterEngine {
  private readonly tiles = new TileCache<DecodedTile>(TILE_CACHE_BYTES);
  private readonly indexTiles = new TileCache<IndexTile & { bytes: number }>(INDEX_CACHE_BYTES);
  private readonly rasters = new Map<string, { raster: OpenRaster; info: RasterInfo }>();
  private readonly luts = new Map<string, Uint8Array[]>();
  private readonly ahead = new ReadAhead();

  async open(id: string, source: RangeSource): Promise<RasterInfo> {
    const known = this.rasters.get(id);
    if (known) return known.info;
    const raster = await OpenRaster.open(id, source, this.tiles);
    const t = raster.tiff;
    if (t.epsg === null || !t.geoTransform)
      throw new Error('the raster has no georeferencing the map can place');
    const info: RasterInfo = {
      placement: {
        epsg: t.epsg,
        levels: t.levels.map((l) => ({
          width: l.width,
          height: l.height,
          geoTransform: l.geoTransform!,
        })),
      },
      levels: t.levels.map((l) => ({
        width: l.width,
        height: l.height,
        tileWidth: l.tileWidth,
        tileHeight: l.tileHeight,
      })),
      bandCount: t.bandCount,
      nodata: t.nodata,
      scales: Array.from({ length: t.bandCount }, (_, b) => ({
        scale: t.metadata.bands[b]?.scale ?? REFLECTANCE.scale,
        offset: t.metadata.bands[b]?.offset ?? 0,
      })),
    };
    this.rasters.set(id, { raster, info });
    return info;
  }

  close(id: string): void {
    const r = this.rasters.get(id);
    if (!r) return;
    this.ahead.cancel(id);
    r.raster.close();
    this.indexTiles.drop(`${id}/`);
    this.rasters.delete(id);
  }

  private get(id: string) {
    const r = this.rasters.get(id);
    if (!r) throw new Error(`raster ${id} is not open`);
    return r;
  }

  /** The finest level with at most STATS_PIXELS pixels. */
  private statsLevel(info: RasterInfo): number {
    const i = info.levels.findIndex((l) => l.width * l.height <= STATS_PIXELS);
    return i < 0 ? info.levels.length - 1 : i;
  }

  /** Every tile of a level, decoded (null where sparse), with its position. */
  private async levelTiles(id: string, level: number) {
    const { raster, info } = this.get(id);
    const l = info.levels[level]!;
    const across = Math.ceil(l.width / l.tileWidth);
    const down = Math.ceil(l.height / l.tileHeight);
    const jobs: Promise<{ tx: number; ty: number; tile: DecodedTile | null }>[] = [];
    for (let ty = 0; ty < down; ty++)
      for (let tx = 0; tx < across; tx++)
        jobs.push(raster.tile(level, tx, ty).then((tile) => ({ tx, ty, tile })));
    return { l, tiles: await Promise.all(jobs) };
  }

  /** Each band's 2nd and 98th percentile over the window (its level of at most STATS_PIXELS). */
  async bandStats(id: string): Promise<BandStats[]> {
    const { info } = this.get(id);
    const { l, tiles } = await this.levelTiles(id, this.statsLevel(info));
    const out: BandStats[] = [];
    for (let b = 0; b < info.bandCount; b++) {
      const hist = new Uint32Array(65536);
      let integer = true;
      for (const { tx, ty, tile } of tiles) {
        if (!tile) continue;
        const plane = tile.bands[b]!;
        const w = Math.min(l.tileWidth, l.width - tx * l.tileWidth);
        const h = Math.min(l.tileHeight, l.height - ty * l.tileHeight);
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const v = plane[y * l.tileWidth + x]!;
            if (Number.isInteger(v) && v >= 0 && v < 65536) hist[v]!++;
            else integer = false;
          }
      }
      const p = integer
        ? histogramPercentiles(hist, [...STRETCH_PERCENTILES, 0, 1], info.nodata)
        : null;
      out.push(
        p
          ? { low: p[0]!, high: p[1]!, min: p[2]!, max: p[3]! }
          : { low: 0, high: 1, min: 0, max: 1 },
      );
    }
    return out;
  }

  /** An index's tile values (cached per tile and expression). */
  private async indexTile(id: string, level: number, tx: number, ty: number, style: IndexStyle) {
    const key = `${id}/${level}/${tx}/${ty}/${style.expression}/${style.bandMap.join(',')}`;
    const hit = this.indexTiles.get(key);
    if (hit) return hit;
    const { raster, info } = this.get(id);
    const tile = await raster.tile(level, tx, ty);
    if (!tile) return null;
    const computed = indexOfTile(
      kernelOf(style.expression),
      tile.bands,
      tile.width * tile.height,
      style.bandMap,
      info.scales,
      info.nodata,
    );
    this.indexTiles.set(key, computed);
    return computed;
  }

  /** The index's 2nd and 98th percentile over the window, and its range. */
  async indexStats(id: string, style: IndexStyle): Promise<BandStats | null> {
    const { info } = this.get(id);
    const level = this.statsLevel(info);
    const l = info.levels[level]!;
    const across = Math.ceil(l.width / l.tileWidth);
    const down = Math.ceil(l.height / l.tileHeight);
    const values: number[] = [];
    for (let ty = 0; ty < down; ty++)
      for (let tx = 0; tx < across; tx++) {
        const t = await this.indexTile(id, level, tx, ty, style);
        if (!t) continue;
        const c = t.components[0]!;
        const w = Math.min(l.tileWidth, l.width - tx * l.tileWidth);
        const h = Math.min(l.tileHeight, l.height - ty * l.tileHeight);
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const v = c[y * l.tileWidth + x]!;
            if (Number.isFinite(v)) values.push(v);
          }
      }
    const p = valuePercentiles(Float32Array.from(values), [...STRETCH_PERCENTILES, 0, 1]);
    return p && { low: p[0]!, high: p[1]!, min: p[2]!, max: p[3]! };
  }

  private lutsOf(style: RasterStyle): Uint8Array[] {
    const key = styleKey(style);
    let l = this.luts.get(key);
    if (!l) {
      l =
        style.kind === 'bands'
          ? style.stretch.map(([lo, hi]) => stretchLut(lo, hi))
          : [rampLut(style.colormap)];
      if (this.luts.size > 16) this.luts.clear();
      this.luts.set(key, l);
    }
    return l;
  }

  /**
   * A map tile's RGBA pixels, or null when the raster has nothing in it. `cancelled` is asked
   * before the painting (a tile scrolled away meanwhile is not painted).
   */
  renderTile(
    id: string,
    tile: MapTile,
    style: RasterStyle,
    cancelled: () => boolean = () => false,
  ): Promise<Uint8ClampedArray | null> {
    return this.ahead.foreground(() => this.paintTile(id, tile, style, cancelled));
  }

  private async paintTile(
    id: string,
    tile: MapTile,
    style: RasterStyle,
    cancelled: () => boolean,
  ): Promise<Uint8ClampedArray | null> {
    const { raster, info } = this.get(id);
    const level = levelForTile(info.placement, tile);
    const n = tile.size * tile.size;
    const cols = new Float64Array(n);
    const rows = new Float64Array(n);
    tileToPixels(info.placement, level, tile, cols, rows);
    const l = info.levels[level]!;
    const box = pixelBox(cols, rows, n, l);
    if (!box) return null;
    const tx0 = Math.floor(box[0] / l.tileWidth);
    const ty0 = Math.floor(box[1] / l.tileHeight);
    const tx1 = Math.floor((box[2] - 1) / l.tileWidth);
    const ty1 = Math.floor((box[3] - 1) / l.tileHeight);
    const across = tx1 - tx0 + 1;
    const out = new Uint8ClampedArray(n * 4);
    if (style.kind === 'bands') {
      const got = await Promise.all(
        positions(tx0, ty0, tx1, ty1).map(([tx, ty]) => raster.tile(level, tx, ty)),
      );
      if (cancelled()) return null;
      const luts = this.lutsOf(style);
      const source: PaintLevel<DecodedTile> = {
        ...l,
        tile: (tx, ty) => got[(ty - ty0) * across + (tx - tx0)] ?? null,
      };
      paintBands(
        cols,
        rows,
        n,
        source,
        { ...style, luts: [luts[0]!, luts[1]!, luts[2]!], nodata: info.nodata },
        out,
      );
    } else {
      const got = await Promise.all(
        positions(tx0, ty0, tx1, ty1).map(([tx, ty]) => this.indexTile(id, level, tx, ty, style)),
      );
      if (cancelled()) return null;
      const components = kernelOf(style.expression).components;
      const source: PaintLevel<IndexTile> = {
        ...l,
        tile: (tx, ty) => got[(ty - ty0) * across + (tx - tx0)] ?? null,
      };
      paintIndex(
        cols,
        rows,
        n,
        source,
        { ramp: components === 1 ? this.lutsOf(style)[0]! : null, range: style.range },
        out,
      );
    }
    return out;
  }

  /**
   * Decodes, while no tile is being painted, the source tiles the next pan or zoom from `view`
   * is likely to need (raster-read-ahead.ts); a newer view of the same raster replaces the plan.
   */
  readAhead(id: string, view: ViewArea): Promise<ReadAheadResult> {
    const { raster, info } = this.get(id);
    const l = info.levels[0]!;
    const tileBytes =
      SAMPLE_BYTES[raster.tiff.sampleType] * l.tileWidth * l.tileHeight * info.bandCount;
    const plan = readAheadPlan(
      info.placement,
      info.levels,
      view,
      Math.floor((TILE_CACHE_BYTES * READ_AHEAD_SHARE) / tileBytes),
    );
    return this.ahead.run(
      id,
      plan,
      (t) => this.isDecoded(id, t),
      (t) => this.get(id).raster.tile(t.level, t.tx, t.ty),
    );
  }

  /**
   * Stops raster `id`'s read-ahead at its next tile: the map started moving (its tiles go first,
   * and the page's frames get the CPU the decoding would take); the move's end brings a new view.
   */
  stopReadAhead(id: string): void {
    this.ahead.cancel(id);
  }

  /** Whether a source tile is decoded and kept (no read, no recency change). */
  isDecoded(id: string, t: SourceTile): boolean {
    return this.rasters.get(id)?.raster.isCached(t.level, t.tx, t.ty) ?? false;
  }

  /** Every band's raw value at (lon, lat), full resolution, and the index's when given. */
  pixel(
    id: string,
    lon: number,
    lat: number,
    index: IndexStyle | null,
  ): Promise<PixelReading | null> {
    return this.ahead.foreground(() => this.readPixel(id, lon, lat, index));
  }

  private async readPixel(
    id: string,
    lon: number,
    lat: number,
    index: IndexStyle | null,
  ): Promise<PixelReading | null> {
    const { raster, info } = this.get(id);
    const at = new Float64Array(2);
    pixelOfLonLat(info.placement, 0)(lon, lat, at);
    const col = Math.floor(at[0]!);
    const row = Math.floor(at[1]!);
    const l = info.levels[0]!;
    if (col < 0 || row < 0 || col >= l.width || row >= l.height) return null;
    const tx = Math.floor(col / l.tileWidth);
    const ty = Math.floor(row / l.tileHeight);
    const tile = await raster.tile(0, tx, ty);
    const j = (row - ty * l.tileHeight) * l.tileWidth + (col - tx * l.tileWidth);
    const raw = tile
      ? tile.bands.map((p) => p[j]!)
      : Array.from({ length: info.bandCount }, () => info.nodata ?? 0);
    const value = index
      ? indexOfPixel(kernelOf(index.expression), raw, index.bandMap, info.scales, info.nodata)
      : null;
    return { col, row, raw, index: value };
  }
}

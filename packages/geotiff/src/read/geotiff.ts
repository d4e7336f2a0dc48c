/**
 * An opened GeoTIFF: its levels, georeferencing and metadata, and pixel reads (a tile's stored
 * bytes, a decoded tile, a window as band arrays, the bands' values at a map position).
 */
import type { Compression } from '../codec';
import { fail } from '../errors';
import { mapToPixel, type GeoTransform } from '../geo';
import type { ReadLimits } from '../limits';
import type { RasterMetadata } from '../metadata';
import { SAMPLE_BYTES, allocSamples, type SampleType, type Samples } from '../tiff/samples';
import { decodeTile, type TileFormat } from './decode';
import type { RasterLevel } from './levels';
import type { RangeSource } from './source';

export interface GeoTiffInfo {
  readonly littleEndian: boolean;
  readonly bigTiff: boolean;
  /** [0] full resolution, then overviews by decreasing size. */
  readonly levels: readonly RasterLevel[];
  readonly format: TileFormat;
  /** EPSG code of the CRS (projected, or geographic for lon/lat rasters); null when none or user-defined. */
  readonly epsg: number | null;
  /** The CRS's citation (`WGS 84 / UTM zone 33N`), when the file has one. */
  readonly crsName: string | null;
  readonly nodata: number | null;
  readonly metadata: RasterMetadata;
  /** GDAL's structural metadata (LAYOUT, BLOCK_ORDER, BLOCK_LEADER...); empty when absent. */
  readonly structural: Readonly<Record<string, string>>;
  /** Range reads and bytes opening took (header, IFDs, their values). */
  readonly headerReads: number;
  readonly headerBytesRead: number;
}

/** A pixel window of a level: columns [x, x + width), rows [y, y + height). */
export interface PixelWindow {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Pixels of a window, one array per band (row-major, `width` x `height`). */
export interface BandArrays {
  readonly width: number;
  readonly height: number;
  readonly bands: Samples[];
}

/** Decoded tiles kept for repeated point reads (a few: a tile is up to a few MB). */
const TILE_CACHE = 4;

export class GeoTiff implements GeoTiffInfo {
  readonly littleEndian: boolean;
  readonly bigTiff: boolean;
  readonly levels: readonly RasterLevel[];
  readonly format: TileFormat;
  readonly epsg: number | null;
  readonly crsName: string | null;
  readonly nodata: number | null;
  readonly metadata: RasterMetadata;
  readonly structural: Readonly<Record<string, string>>;
  readonly headerReads: number;
  readonly headerBytesRead: number;
  private readonly cache = new Map<string, Samples>();

  constructor(
    private readonly source: RangeSource,
    private readonly codec: Compression,
    readonly limits: ReadLimits,
    info: GeoTiffInfo,
  ) {
    this.littleEndian = info.littleEndian;
    this.bigTiff = info.bigTiff;
    this.levels = info.levels;
    this.format = info.format;
    this.epsg = info.epsg;
    this.crsName = info.crsName;
    this.nodata = info.nodata;
    this.metadata = info.metadata;
    this.structural = info.structural;
    this.headerReads = info.headerReads;
    this.headerBytesRead = info.headerBytesRead;
  }

  get width(): number {
    return this.levels[0]!.width;
  }
  get height(): number {
    return this.levels[0]!.height;
  }
  get bandCount(): number {
    return this.format.bands;
  }
  get sampleType(): SampleType {
    return this.format.sampleType;
  }
  get geoTransform(): GeoTransform | null {
    return this.levels[0]!.geoTransform;
  }
  /** Band names (GDAL descriptions), '' where a band has none. */
  get bandNames(): string[] {
    return this.metadata.bands.map((b) => b.description ?? '');
  }

  /**
   * Where the tile data starts: the smallest tile offset (minus GDAL's 4-byte block leader when
   * the file declares one). In a COG everything before it is header, IFDs and their values.
   */
  get dataOffset(): number {
    let min = Infinity;
    for (const l of this.levels)
      for (let i = 0; i < l.tileOffsets.length; i++)
        if (l.tileByteCounts[i]! > 0 && l.tileOffsets[i]! < min) min = l.tileOffsets[i]!;
    if (min === Infinity) return 0;
    return this.structural.BLOCK_LEADER === 'SIZE_AS_UINT4' ? min - 4 : min;
  }

  level(index: number): RasterLevel {
    const l = this.levels[index];
    if (!l) fail('argument', `level ${index}: the file has levels 0..${this.levels.length - 1}`);
    return l;
  }

  /** Where tile (tx, ty) of a level is stored: offset and byte count (0 and 0 when sparse). */
  tileRange(level: number, tx: number, ty: number): { offset: number; byteCount: number } {
    const l = this.level(level);
    if (
      !Number.isInteger(tx) ||
      !Number.isInteger(ty) ||
      tx < 0 ||
      ty < 0 ||
      tx >= l.tilesAcross ||
      ty >= l.tilesDown
    )
      fail(
        'argument',
        `tile (${tx}, ${ty}) of level ${level}: it has ${l.tilesAcross} x ${l.tilesDown}`,
      );
    const i = ty * l.tilesAcross + tx;
    return { offset: l.tileOffsets[i]!, byteCount: l.tileByteCounts[i]! };
  }

  /** A tile's bytes as stored (compressed), or null for a sparse tile. */
  async readTileBytes(level: number, tx: number, ty: number): Promise<Uint8Array | null> {
    const { offset, byteCount } = this.tileRange(level, tx, ty);
    if (byteCount === 0) return null;
    if (byteCount > this.limits.maxTileBytes)
      fail(
        'limit',
        `tile (${tx}, ${ty}) of level ${level} has ${byteCount} stored bytes (limit ${this.limits.maxTileBytes})`,
      );
    const size = this.source.size;
    if (size !== undefined && offset + byteCount > size)
      fail(
        'truncated',
        `tile (${tx}, ${ty}) of level ${level} at ${offset} + ${byteCount} passes the end of the file (${size} bytes)`,
      );
    const bytes = await this.source.read(offset, byteCount);
    if (bytes.length < byteCount)
      fail('truncated', `the file ends inside tile (${tx}, ${ty}) of level ${level}`);
    return bytes;
  }

  /** Rows a tile (or strip) really holds: strips at the bottom may be short. */
  private tileRows(l: RasterLevel, ty: number): number {
    return l.tiled ? l.tileHeight : Math.min(l.tileHeight, l.height - ty * l.tileHeight);
  }

  /**
   * Decodes stored tile bytes (from `readTileBytes`, or fetched by the caller): always
   * `tileWidth` x `tileHeight` pixels of every band, pixel-interleaved; a sparse tile (null)
   * is all nodata (0 without nodata).
   */
  decodeTileBytes(level: number, tx: number, ty: number, stored: Uint8Array | null): Samples {
    const l = this.level(level);
    const full = l.tileWidth * l.tileHeight * this.format.bands;
    if (stored === null) {
      const out = allocSamples(this.format.sampleType, full);
      if (this.nodata !== null && this.nodata !== 0) out.fill(this.nodata);
      return out;
    }
    const rows = this.tileRows(l, ty);
    const s = decodeTile(
      stored,
      this.format,
      l.tileWidth,
      rows,
      this.codec,
      `tile (${tx}, ${ty}) of level ${level}`,
    );
    if (rows === l.tileHeight) return s;
    const out = allocSamples(this.format.sampleType, full);
    out.set(s);
    return out;
  }

  /** A decoded tile (see `decodeTileBytes`). */
  async readTile(level: number, tx: number, ty: number): Promise<Samples> {
    const key = `${level}/${tx}/${ty}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const tile = this.decodeTileBytes(level, tx, ty, await this.readTileBytes(level, tx, ty));
    this.cache.set(key, tile);
    if (this.cache.size > TILE_CACHE) this.cache.delete(this.cache.keys().next().value!);
    return tile;
  }

  /** A window of a level decoded to one array per band (in `bands` order; default all). */
  async readWindow(level: number, w: PixelWindow, bands?: readonly number[]): Promise<BandArrays> {
    const l = this.level(level);
    const { x, y, width, height } = w;
    if (
      ![x, y, width, height].every(Number.isInteger) ||
      width < 1 ||
      height < 1 ||
      x < 0 ||
      y < 0 ||
      x + width > l.width ||
      y + height > l.height
    )
      fail(
        'argument',
        `window ${x},${y} ${width}x${height} is not inside level ${level} (${l.width}x${l.height})`,
      );
    const nb = this.format.bands;
    const picked = bands ?? Array.from({ length: nb }, (_, i) => i);
    for (const b of picked)
      if (!Number.isInteger(b) || b < 0 || b >= nb)
        fail('argument', `band ${b}: the file has ${nb}`);
    const bytes = width * height * picked.length * SAMPLE_BYTES[this.format.sampleType];
    if (bytes > this.limits.maxDecodedBytes)
      fail('limit', `the window decodes to ${bytes} bytes (limit ${this.limits.maxDecodedBytes})`);
    const out = picked.map(() => allocSamples(this.format.sampleType, width * height));
    const tx0 = Math.floor(x / l.tileWidth);
    const tx1 = Math.floor((x + width - 1) / l.tileWidth);
    const ty0 = Math.floor(y / l.tileHeight);
    const ty1 = Math.floor((y + height - 1) / l.tileHeight);
    const tiles: [number, number][] = [];
    for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) tiles.push([tx, ty]);
    // A few reads in flight: a range source over HTTP overlaps their round trips.
    for (let i = 0; i < tiles.length; i += 8) {
      const batch = tiles.slice(i, i + 8);
      const stored = await Promise.all(batch.map(([tx, ty]) => this.readTileBytes(level, tx, ty)));
      batch.forEach(([tx, ty], k) => {
        const tile = this.decodeTileBytes(level, tx, ty, stored[k]!);
        const c0 = Math.max(x, tx * l.tileWidth);
        const c1 = Math.min(x + width, (tx + 1) * l.tileWidth);
        const r0 = Math.max(y, ty * l.tileHeight);
        const r1 = Math.min(y + height, (ty + 1) * l.tileHeight);
        for (let row = r0; row < r1; row++) {
          const src = ((row - ty * l.tileHeight) * l.tileWidth + (c0 - tx * l.tileWidth)) * nb;
          const dst = (row - y) * width + (c0 - x);
          picked.forEach((b, j) => {
            const band = out[j]!;
            for (let c = 0, s = src + b; c < c1 - c0; c++, s += nb) band[dst + c] = tile[s]!;
          });
        }
      });
    }
    return { width, height, bands: out };
  }

  /**
   * Every band's value at map position (x, y) in the raster's CRS, read from `level`; null
   * outside the raster. Values are raw (apply the bands' scale and offset for physical ones).
   */
  async valueAt(x: number, y: number, level = 0): Promise<number[] | null> {
    const l = this.level(level);
    if (!l.geoTransform)
      fail('argument', 'the raster has no georeferencing: read pixels with pixelValues');
    const [col, row] = mapToPixel(l.geoTransform, x, y);
    return this.pixelValues(Math.floor(col), Math.floor(row), level);
  }

  /** Every band's value at pixel (col, row) of a level; null outside. */
  async pixelValues(col: number, row: number, level = 0): Promise<number[] | null> {
    const l = this.level(level);
    if (!(col >= 0 && row >= 0 && col < l.width && row < l.height)) return null;
    const tx = Math.floor(col / l.tileWidth);
    const ty = Math.floor(row / l.tileHeight);
    const tile = await this.readTile(level, tx, ty);
    const nb = this.format.bands;
    const at = ((row - ty * l.tileHeight) * l.tileWidth + (col - tx * l.tileWidth)) * nb;
    return Array.from(tile.subarray(at, at + nb));
  }
}

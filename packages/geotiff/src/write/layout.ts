/**
 * The COG layout GDAL's COG driver writes and its validator checks: the header, GDAL's
 * structural metadata (the "ghost area": LAYOUT=IFDS_BEFORE_DATA, BLOCK_ORDER=ROW_MAJOR, a
 * 4-byte size leader and a 4-byte trailer around every tile), the IFDs of the full resolution
 * and of every overview, then the tiles, smallest overview first, row-major within a level.
 * The header's size does not depend on the tiles' sizes, so it is reserved first and written
 * last, and the tiles stream in between.
 */
import { utmCrsName, utmOfEpsg } from '@eo/domain';
import { fail } from '../errors';
import { gdalMetadataXml } from '../metadata';
import { SAMPLE_BYTES, isFloat, tagsOfSampleType } from '../tiff/samples';
import {
  COMPRESSION_DEFLATE,
  COMPRESSION_NONE,
  FieldType,
  GeoKey,
  MODEL_GEOGRAPHIC,
  MODEL_PROJECTED,
  RASTER_PIXEL_IS_AREA,
  SUBFILE_REDUCED,
  Tag,
} from '../tiff/tags';
import { encodeUtf8 } from '../tiff/text';
import { encodeIfd, ifdSize, type TagValue } from './ifd';
import type { CogSpec } from './spec';

export const DEFAULT_TILE_SIZE = 512;
/** Bytes GDAL puts before and after each tile: its size (uint32 LE), then its last 4 bytes again. */
export const BLOCK_LEADER = 4;
export const BLOCK_TRAILER = 4;

const GHOST_BODY =
  'LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nBLOCK_LEADER=SIZE_AS_UINT4\n' +
  'BLOCK_TRAILER=LAST_4_BYTES_REPEATED\nKNOWN_INCOMPATIBLE_EDITION=NO\n ';
const GHOST = `GDAL_STRUCTURAL_METADATA_SIZE=${String(GHOST_BODY.length).padStart(6, '0')} bytes\n${GHOST_BODY}`;

export interface LevelLayout {
  readonly width: number;
  readonly height: number;
  readonly tilesAcross: number;
  readonly tilesDown: number;
  readonly ifdOffset: number;
}

export interface CogLayout {
  readonly spec: CogSpec;
  readonly tileSize: number;
  readonly bigTiff: boolean;
  readonly compression: number;
  readonly predictor: 1 | 2 | 3;
  /** [0] full resolution, then overviews. */
  readonly levels: readonly LevelLayout[];
  /** Bytes before the first tile's leader: header, ghost area, IFDs and their values. */
  readonly headerSize: number;
  /** Decoded bytes of one tile. */
  readonly tileBytes: number;
}

/** Level sizes: halving (rounding up) until a level fits one tile, or `overviews` of them. */
function levelSizes(spec: CogSpec, tile: number): [number, number][] {
  const sizes: [number, number][] = [[spec.width, spec.height]];
  let [w, h] = sizes[0]!;
  const wanted = spec.overviews ?? Infinity;
  while (sizes.length - 1 < wanted && (w > tile || h > tile) && w > 1 && h > 1) {
    w = Math.ceil(w / 2);
    h = Math.ceil(h / 2);
    sizes.push([w, h]);
  }
  return sizes;
}

function geoTags(spec: CogSpec): TagValue[] {
  const gt = spec.geoTransform;
  const geographic = spec.geographic ?? spec.epsg === 4326;
  const utm = utmOfEpsg(spec.epsg);
  const name = spec.crsName ?? (utm ? utmCrsName(utm.zone, utm.south) : `EPSG:${spec.epsg}`);
  const ascii = [...encodeUtf8(`${name}|`), 0];
  const keys = geographic
    ? [
        [GeoKey.GTModelType, 0, 1, MODEL_GEOGRAPHIC],
        [GeoKey.GTRasterType, 0, 1, RASTER_PIXEL_IS_AREA],
        [GeoKey.GTCitation, Tag.GeoAsciiParams, ascii.length - 1, 0],
        [GeoKey.GeographicType, 0, 1, spec.epsg],
        [GeoKey.GeogAngularUnits, 0, 1, 9102],
      ]
    : [
        [GeoKey.GTModelType, 0, 1, MODEL_PROJECTED],
        [GeoKey.GTRasterType, 0, 1, RASTER_PIXEL_IS_AREA],
        [GeoKey.GTCitation, Tag.GeoAsciiParams, ascii.length - 1, 0],
        [GeoKey.ProjectedCSType, 0, 1, spec.epsg],
        [GeoKey.ProjLinearUnits, 0, 1, 9001],
      ];
  const tags: TagValue[] = [
    {
      tag: Tag.GeoKeyDirectory,
      type: FieldType.SHORT,
      values: [1, 1, 0, keys.length, ...keys.flat()],
    },
    { tag: Tag.GeoAsciiParams, type: FieldType.ASCII, values: ascii },
  ];
  if (gt[2] === 0 && gt[4] === 0) {
    tags.push(
      { tag: Tag.ModelPixelScale, type: FieldType.DOUBLE, values: [gt[1], -gt[5], 0] },
      { tag: Tag.ModelTiepoint, type: FieldType.DOUBLE, values: [0, 0, 0, gt[0], gt[3], 0] },
    );
  } else {
    tags.push({
      tag: Tag.ModelTransformation,
      type: FieldType.DOUBLE,
      values: [gt[1], gt[2], 0, gt[0], gt[4], gt[5], 0, gt[3], 0, 0, 0, 0, 0, 0, 0, 1],
    });
  }
  return tags;
}

const ascii = (s: string): number[] => [...encodeUtf8(s), 0];

/** The tags of one level's IFD (tile offsets and byte counts as given). */
function levelTags(
  layout: Omit<CogLayout, 'levels' | 'headerSize'>,
  index: number,
  w: number,
  h: number,
  offsets: ArrayLike<number>,
  counts: ArrayLike<number>,
): TagValue[] {
  const { spec, tileSize, bigTiff } = layout;
  const { bits, format } = tagsOfSampleType(spec.sampleType);
  const perSample = (v: number) => Array.from({ length: spec.bands }, () => v);
  const dim = (v: number) => (v < 65536 ? FieldType.SHORT : FieldType.LONG);
  const tags: TagValue[] = [
    { tag: Tag.NewSubfileType, type: FieldType.LONG, values: [index === 0 ? 0 : SUBFILE_REDUCED] },
    { tag: Tag.ImageWidth, type: dim(w), values: [w] },
    { tag: Tag.ImageLength, type: dim(h), values: [h] },
    { tag: Tag.BitsPerSample, type: FieldType.SHORT, values: perSample(bits) },
    { tag: Tag.Compression, type: FieldType.SHORT, values: [layout.compression] },
    { tag: Tag.Photometric, type: FieldType.SHORT, values: [1] },
    { tag: Tag.SamplesPerPixel, type: FieldType.SHORT, values: [spec.bands] },
    { tag: Tag.PlanarConfiguration, type: FieldType.SHORT, values: [1] },
    { tag: Tag.TileWidth, type: dim(tileSize), values: [tileSize] },
    { tag: Tag.TileLength, type: dim(tileSize), values: [tileSize] },
    { tag: Tag.TileOffsets, type: bigTiff ? FieldType.LONG8 : FieldType.LONG, values: offsets },
    { tag: Tag.TileByteCounts, type: bigTiff ? FieldType.LONG8 : FieldType.LONG, values: counts },
    { tag: Tag.SampleFormat, type: FieldType.SHORT, values: perSample(format) },
  ];
  if (layout.predictor !== 1)
    tags.push({ tag: Tag.Predictor, type: FieldType.SHORT, values: [layout.predictor] });
  if (spec.bands > 1)
    tags.push({
      tag: Tag.ExtraSamples,
      type: FieldType.SHORT,
      values: Array(spec.bands - 1).fill(0),
    });
  if (spec.nodata !== undefined && spec.nodata !== null)
    tags.push({ tag: Tag.GdalNodata, type: FieldType.ASCII, values: ascii(String(spec.nodata)) });
  if (index === 0) {
    tags.push(...geoTags(spec));
    const xml = gdalMetadataXml({ dataset: spec.metadata ?? {}, bands: spec.bandMetadata ?? [] });
    if (xml) tags.push({ tag: Tag.GdalMetadata, type: FieldType.ASCII, values: ascii(xml) });
  }
  return tags;
}

function checkSpec(spec: CogSpec, tileSize: number): void {
  const ok = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!ok(spec.width, 1, 1 << 24) || !ok(spec.height, 1, 1 << 24))
    fail('argument', `a ${spec.width} x ${spec.height} raster`);
  if (!ok(spec.bands, 1, 1024)) fail('argument', `${spec.bands} bands`);
  if (!ok(tileSize, 16, 4096) || tileSize % 16 !== 0)
    fail('argument', `tile size ${tileSize}: a multiple of 16 from 16 to 4096`);
  if (spec.geoTransform.length !== 6 || spec.geoTransform.some((v) => !Number.isFinite(v)))
    fail('argument', 'the geotransform needs six finite numbers');
  if (!ok(spec.epsg, 1, 65535)) fail('argument', `EPSG code ${spec.epsg}`);
  if (spec.predictor === 2 && isFloat(spec.sampleType))
    fail('argument', 'predictor 2 on floating-point samples');
  if (spec.predictor === 3 && !isFloat(spec.sampleType))
    fail('argument', 'predictor 3 on integer samples');
}

/** The layout of a COG: levels, BigTIFF or not, where each IFD goes and the header's size. */
export function planCog(spec: CogSpec): CogLayout {
  const tileSize = spec.tileSize ?? DEFAULT_TILE_SIZE;
  checkSpec(spec, tileSize);
  const compression = spec.compression === 'none' ? COMPRESSION_NONE : COMPRESSION_DEFLATE;
  const predictor =
    compression === COMPRESSION_NONE ? 1 : (spec.predictor ?? (isFloat(spec.sampleType) ? 3 : 2));
  const tileBytes = tileSize * tileSize * spec.bands * SAMPLE_BYTES[spec.sampleType];
  const sizes = levelSizes(spec, tileSize);
  const tileCount = (w: number, h: number) => Math.ceil(w / tileSize) * Math.ceil(h / tileSize);
  const base = { spec, tileSize, compression, predictor, tileBytes } as const;

  const headerFor = (bigTiff: boolean) => {
    const levels: LevelLayout[] = [];
    let at = (bigTiff ? 16 : 8) + GHOST.length;
    at += at & 1;
    sizes.forEach(([w, h], i) => {
      const n = tileCount(w, h);
      const zeros = new Float64Array(n);
      levels.push({
        width: w,
        height: h,
        tilesAcross: Math.ceil(w / tileSize),
        tilesDown: Math.ceil(h / tileSize),
        ifdOffset: at,
      });
      at += ifdSize(levelTags({ ...base, bigTiff }, i, w, h, zeros, zeros), bigTiff);
    });
    return { levels, headerSize: at };
  };
  // BigTIFF when the file could pass 4 GiB: every tile at zlib's worst case.
  const classic = headerFor(false);
  const tiles = sizes.reduce((s, [w, h]) => s + tileCount(w, h), 0);
  const worstTile = tileBytes + Math.ceil(tileBytes / 1000) + 64 + BLOCK_LEADER + BLOCK_TRAILER;
  const bigTiff = spec.bigTiff ?? classic.headerSize + tiles * worstTile > 0xffff_ffff;
  const { levels, headerSize } = bigTiff ? headerFor(true) : classic;
  return { ...base, bigTiff, levels, headerSize };
}

/**
 * The header's bytes (`layout.headerSize` of them) once every tile's offset and byte count is
 * known (per level, row-major; 0 and 0 for a sparse tile).
 */
export function cogHeader(
  layout: CogLayout,
  offsets: readonly ArrayLike<number>[],
  counts: readonly ArrayLike<number>[],
): Uint8Array {
  const out = new Uint8Array(layout.headerSize);
  const v = new DataView(out.buffer);
  out[0] = 0x49;
  out[1] = 0x49;
  if (layout.bigTiff) {
    v.setUint16(2, 43, true);
    v.setUint16(4, 8, true);
    v.setBigUint64(8, BigInt(layout.levels[0]!.ifdOffset), true);
  } else {
    v.setUint16(2, 42, true);
    v.setUint32(4, layout.levels[0]!.ifdOffset, true);
  }
  const ghostAt = layout.bigTiff ? 16 : 8;
  for (let i = 0; i < GHOST.length; i++) out[ghostAt + i] = GHOST.charCodeAt(i);
  layout.levels.forEach((l, i) => {
    if (!layout.bigTiff)
      for (let k = 0; k < offsets[i]!.length; k++)
        if (offsets[i]![k]! + counts[i]![k]! > 0xffff_ffff)
          fail('limit', 'a tile passes 4 GiB in a classic TIFF (write it as BigTIFF)');
    const next = layout.levels[i + 1]?.ifdOffset ?? 0;
    const ifd = encodeIfd(
      levelTags(layout, i, l.width, l.height, offsets[i]!, counts[i]!),
      layout.bigTiff,
      l.ifdOffset,
      next,
    );
    out.set(ifd, l.ifdOffset);
  });
  return out;
}

/** Tiles in file order: smallest overview first, row-major within a level. */
export function* tileOrder(
  layout: CogLayout,
): Generator<{ level: number; x: number; y: number; index: number }> {
  for (let level = layout.levels.length - 1; level >= 0; level--) {
    const l = layout.levels[level]!;
    for (let y = 0; y < l.tilesDown; y++)
      for (let x = 0; x < l.tilesAcross; x++) yield { level, x, y, index: y * l.tilesAcross + x };
  }
}

/**
 * Every tile's offset when the tiles are laid out in file order with these byte counts (0:
 * sparse, no bytes): what a writer gets by streaming, computed without the tiles (a "virtual"
 * COG serves ranges from this and tiles made on demand).
 */
export function tileOffsetsFor(
  layout: CogLayout,
  counts: readonly ArrayLike<number>[],
): Float64Array[] {
  const offsets = layout.levels.map((l) => new Float64Array(l.tilesAcross * l.tilesDown));
  let at = layout.headerSize;
  for (const t of tileOrder(layout)) {
    const n = counts[t.level]![t.index]!;
    if (n === 0) continue;
    offsets[t.level]![t.index] = at + BLOCK_LEADER;
    at += BLOCK_LEADER + n + BLOCK_TRAILER;
  }
  return offsets;
}

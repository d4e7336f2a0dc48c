/**
 * From IFDs to raster levels: the full-resolution image (IFD 0) and its overviews (reduced-
 * resolution IFDs with the same bands, by decreasing size; masks and anything else skipped).
 * Tiled or stripped (a strip is read as a tile as wide as the image).
 */
import { fail } from '../errors';
import type { GeoTransform } from '../geo';
import { scaledTransform } from '../geo';
import type { ReadLimits } from '../limits';
import { SAMPLE_BYTES, sampleTypeOf, type SampleType } from '../tiff/samples';
import { SUBFILE_MASK, SUBFILE_REDUCED, Tag } from '../tiff/tags';
import type { Ifd, IfdReader } from './ifd';
import { checkFormat, type TileFormat } from './decode';

export interface RasterLevel {
  /** 0: full resolution; 1..: overviews, each smaller than the one before. */
  readonly index: number;
  readonly ifdOffset: number;
  readonly width: number;
  readonly height: number;
  /** Tile size; for a stripped image, the image width and the rows per strip. */
  readonly tileWidth: number;
  readonly tileHeight: number;
  readonly tilesAcross: number;
  readonly tilesDown: number;
  readonly tiled: boolean;
  /** Where each tile's stored bytes are (row-major); offset 0 and count 0: a sparse tile. */
  readonly tileOffsets: Float64Array;
  readonly tileByteCounts: Float64Array;
  readonly geoTransform: GeoTransform | null;
}

export interface IfdImage {
  readonly level: Omit<RasterLevel, 'index' | 'geoTransform'>;
  readonly format: TileFormat;
  readonly subfileType: number;
}

async function one(r: IfdReader, ifd: Ifd, tag: number): Promise<number | undefined> {
  const e = ifd.entries.get(tag);
  if (!e) return undefined;
  const v = await r.numbers(e, 1024);
  return v[0];
}

async function required(r: IfdReader, ifd: Ifd, tag: number, name: string, n: number) {
  const v = await one(r, ifd, tag);
  if (v === undefined) fail('corrupt', `IFD ${n} has no ${name}`);
  return v;
}

/** Every value of a per-sample tag is the same (we read one sample type for all bands). */
async function perSample(r: IfdReader, ifd: Ifd, tag: number, fallback: number, bands: number) {
  const e = ifd.entries.get(tag);
  if (!e) return fallback;
  const v = await r.numbers(e, bands + 1);
  const first = v[0] ?? fallback;
  if (v.some((x) => x !== first))
    fail(
      'unsupported',
      `bands of different ${tag === Tag.BitsPerSample ? 'bit depths' : 'sample formats'}`,
    );
  return first;
}

/** Reads one IFD's image structure, checking every size against the limits. */
export async function readIfdImage(
  r: IfdReader,
  ifd: Ifd,
  n: number,
  littleEndian: boolean,
  limits: ReadLimits,
): Promise<IfdImage> {
  const width = await required(r, ifd, Tag.ImageWidth, 'ImageWidth', n);
  const height = await required(r, ifd, Tag.ImageLength, 'ImageLength', n);
  for (const [v, name] of [
    [width, 'width'],
    [height, 'height'],
  ] as const)
    if (!Number.isInteger(v) || v < 1 || v > limits.maxImageSide)
      fail('limit', `IFD ${n}'s ${name} is ${v} (1..${limits.maxImageSide})`);
  const bands = (await one(r, ifd, Tag.SamplesPerPixel)) ?? 1;
  if (!Number.isInteger(bands) || bands < 1 || bands > limits.maxBands)
    fail('limit', `IFD ${n} has ${bands} samples per pixel (1..${limits.maxBands})`);
  const planar = (await one(r, ifd, Tag.PlanarConfiguration)) ?? 1;
  if (planar !== 1 && bands > 1)
    fail(
      'unsupported',
      'PlanarConfiguration 2 (band-sequential): this reader takes pixel-interleaved files',
    );
  const bits = await perSample(r, ifd, Tag.BitsPerSample, 1, bands);
  const sampleFormat = await perSample(r, ifd, Tag.SampleFormat, 1, bands);
  const sampleType: SampleType = sampleTypeOf(bits, sampleFormat);
  const format: TileFormat = {
    compression: (await one(r, ifd, Tag.Compression)) ?? 1,
    predictor: (await one(r, ifd, Tag.Predictor)) ?? 1,
    sampleType,
    bands,
    littleEndian,
  };
  const tiled = ifd.entries.has(Tag.TileWidth);
  let tileWidth: number;
  let tileHeight: number;
  if (tiled) {
    tileWidth = await required(r, ifd, Tag.TileWidth, 'TileWidth', n);
    tileHeight = await required(r, ifd, Tag.TileLength, 'TileLength', n);
  } else {
    tileWidth = width;
    tileHeight = Math.min(height, (await one(r, ifd, Tag.RowsPerStrip)) ?? height);
  }
  if (
    !Number.isInteger(tileWidth) ||
    !Number.isInteger(tileHeight) ||
    tileWidth < 1 ||
    tileHeight < 1
  )
    fail('corrupt', `IFD ${n}'s tiles are ${tileWidth} x ${tileHeight}`);
  const tileBytes = tileWidth * tileHeight * bands * SAMPLE_BYTES[sampleType];
  if (tileBytes > limits.maxTileBytes)
    fail(
      'limit',
      `IFD ${n}'s ${tiled ? 'tiles' : 'strips'} decode to ${tileBytes} bytes (limit ${limits.maxTileBytes})`,
    );
  const tilesAcross = Math.ceil(width / tileWidth);
  const tilesDown = Math.ceil(height / tileHeight);
  const count = tilesAcross * tilesDown;
  const offTag = ifd.entries.get(tiled ? Tag.TileOffsets : Tag.StripOffsets);
  const cntTag = ifd.entries.get(tiled ? Tag.TileByteCounts : Tag.StripByteCounts);
  if (!offTag || !cntTag)
    fail('corrupt', `IFD ${n} has no ${tiled ? 'tile' : 'strip'} offsets or byte counts`);
  if (offTag.count !== count || cntTag.count !== count)
    fail(
      'corrupt',
      `IFD ${n} has ${offTag.count} offsets and ${cntTag.count} byte counts for ${count} ${tiled ? 'tiles' : 'strips'}`,
    );
  const tileOffsets = await r.numbers(offTag);
  const tileByteCounts = await r.numbers(cntTag);
  const subfileType = (await one(r, ifd, Tag.NewSubfileType)) ?? 0;
  return {
    level: {
      ifdOffset: ifd.offset,
      width,
      height,
      tileWidth,
      tileHeight,
      tilesAcross,
      tilesDown,
      tiled,
      tileOffsets,
      tileByteCounts,
    },
    format,
    subfileType,
  };
}

const sameFormat = (a: TileFormat, b: TileFormat) =>
  a.bands === b.bands &&
  a.sampleType === b.sampleType &&
  a.compression === b.compression &&
  a.predictor === b.predictor;

/**
 * The levels: IFD 0 and every later reduced-resolution IFD of the same format that is smaller
 * than the level before (GDAL's internal overviews). The format is checked once here.
 */
export function pickLevels(images: readonly IfdImage[], gt: GeoTransform | null) {
  const main = images[0]!;
  if (main.subfileType & SUBFILE_MASK) fail('unsupported', 'the first IFD is a mask');
  checkFormat(main.format);
  const levels: RasterLevel[] = [{ ...main.level, index: 0, geoTransform: gt }];
  for (const img of images.slice(1)) {
    const prev = levels[levels.length - 1]!;
    if (!(img.subfileType & SUBFILE_REDUCED) || img.subfileType & SUBFILE_MASK) continue;
    if (!sameFormat(img.format, main.format)) continue;
    if (img.level.width > prev.width || img.level.height > prev.height) continue;
    if (img.level.width === prev.width && img.level.height === prev.height) continue;
    const { width, height } = img.level;
    levels.push({
      ...img.level,
      index: levels.length,
      geoTransform: gt && scaledTransform(gt, main.level.width, main.level.height, width, height),
    });
  }
  return { levels, format: main.format };
}

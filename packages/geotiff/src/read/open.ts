/**
 * Opening a GeoTIFF over a range source: the header, the IFD chain, the levels, the
 * georeferencing and GDAL's metadata, all bounded by `ReadLimits`. Pixels are read later, per
 * tile (`GeoTiff` in `./geotiff.ts`).
 */
import type { Compression } from '../codec';
import { fail } from '../errors';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../limits';
import { parseGdalMetadata, type RasterMetadata } from '../metadata';
import { Tag, SUBFILE_MASK, SUBFILE_REDUCED } from '../tiff/tags';
import { decodeLatin1, decodeUtf8 } from '../tiff/text';
import { GeoTiff } from './geotiff';
import { geoTransformOf, parseGeoKeys, type GeoKeys } from './geokeys';
import { IfdReader, readHeader, readIfdChain, type Ifd } from './ifd';
import { pickLevels, readIfdImage, type IfdImage } from './levels';
import { HeaderBytes, type RangeSource } from './source';

export interface OpenOptions {
  readonly compression: Compression;
  readonly limits?: Partial<ReadLimits>;
  /** Bytes of the first read (default 16 KiB: a COG's IFDs up to ~1,000 tiles per level fit). */
  readonly headerChunk?: number;
}

/** GDAL's ghost area after the header (`GDAL_STRUCTURAL_METADATA_SIZE=...`): its KEY=VALUE lines. */
async function structuralMetadata(bytes: HeaderBytes, at: number): Promise<Record<string, string>> {
  const head = decodeLatin1(await bytes.get(at, 43));
  const m = /^GDAL_STRUCTURAL_METADATA_SIZE=(\d{6}) bytes\n$/.exec(head);
  if (!m) return {};
  const text = decodeLatin1(await bytes.get(at + 43, Number(m[1])));
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const kv = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (kv) out[kv[1]!] = kv[2]!;
  }
  return out;
}

async function optional(r: IfdReader, ifd: Ifd, tag: number): Promise<Float64Array | null> {
  const e = ifd.entries.get(tag);
  return e ? r.numbers(e, 4096) : null;
}

async function text(r: IfdReader, ifd: Ifd, tag: number, utf8 = false): Promise<string | null> {
  const e = ifd.entries.get(tag);
  if (!e) return null;
  const b = await r.bytesOf(e);
  return utf8 ? decodeUtf8(b) : decodeLatin1(b);
}

/** Opens a (Geo)TIFF. Throws `GeoTiffError` when the file is not one this reader takes. */
export async function openGeoTiff(source: RangeSource, opts: OpenOptions): Promise<GeoTiff> {
  const limits: ReadLimits = { ...DEFAULT_READ_LIMITS, ...opts.limits };
  const bytes = new HeaderBytes(source, opts.headerChunk ?? 16_384, limits.maxHeaderBytes);
  const header = await readHeader(bytes);
  const ifds = await readIfdChain(bytes, header, limits, source.size);
  const r = new IfdReader(bytes, header, limits, source.size);
  const structural = await structuralMetadata(bytes, header.bigTiff ? 16 : 8);

  const images: IfdImage[] = [];
  for (let i = 0; i < ifds.length; i++) {
    const ifd = ifds[i]!;
    if (i > 0) {
      const e = ifd.entries.get(Tag.NewSubfileType);
      const subfile = e ? ((await r.numbers(e, 1))[0] ?? 0) : 0;
      if (!(subfile & SUBFILE_REDUCED) || subfile & SUBFILE_MASK) continue;
    }
    images.push(await readIfdImage(r, ifd, i, header.littleEndian, limits));
  }

  const main = ifds[0]!;
  const dir = await optional(r, main, Tag.GeoKeyDirectory);
  const keys: GeoKeys | null = dir
    ? parseGeoKeys(dir, (await text(r, main, Tag.GeoAsciiParams)) ?? '')
    : null;
  const gt = geoTransformOf(
    await optional(r, main, Tag.ModelPixelScale),
    await optional(r, main, Tag.ModelTiepoint),
    await optional(r, main, Tag.ModelTransformation),
    keys?.rasterType ?? null,
  );
  const { levels, format } = pickLevels(images, gt);
  const nodataText = await text(r, main, Tag.GdalNodata);
  const nodata = nodataText === null || nodataText.trim() === '' ? null : Number(nodataText.trim());
  if (nodata !== null && Number.isNaN(nodata) && !/^nan$/i.test(nodataText!.trim()))
    fail('corrupt', `GDAL_NODATA is not a number: ${JSON.stringify(nodataText!.slice(0, 40))}`);
  const mdText = await text(r, main, Tag.GdalMetadata, true);
  const metadata: RasterMetadata = mdText
    ? parseGdalMetadata(mdText, format.bands)
    : { dataset: {}, bands: Array.from({ length: format.bands }, () => ({})) };

  return new GeoTiff(source, opts.compression, limits, {
    littleEndian: header.littleEndian,
    bigTiff: header.bigTiff,
    levels,
    format,
    epsg: keys?.epsg ?? null,
    crsName: keys?.citation ?? null,
    nodata,
    metadata,
    structural,
    headerReads: bytes.reads,
    headerBytesRead: bytes.bytesRead,
  });
}

/**
 * The other way round: files GDAL writes (COG and plain GeoTIFF, BigTIFF, strips, big-endian,
 * float32 with predictor 3, uncompressed, compression 32946, PixelIsPoint, a rotated
 * transform) read by our reader exactly as GDAL reads them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gdalInfo, gdalPixels, gdalTranslate } from '../testing';
import { Tag } from '../tiff/tags';
import type { CogSpec, GeoTiff } from '../index';
import { openFile, pixelDiff, tempDir, writeCogFile } from './helpers';

const dir = tempDir();
const src = path.join(dir, 'source.tif');
const spec: CogSpec = {
  width: 600,
  height: 410,
  bands: 3,
  sampleType: 'uint16',
  tileSize: 128,
  geoTransform: [300_000, 10, 0, 4_200_000, 0, -10],
  epsg: 32619,
  nodata: 0,
  compression: 'none',
  overviews: 0,
  metadata: { SCENE_ID: 'S1', DATETIME: '2024-05-17T09:30:12Z' },
  bandMetadata: ['B02', 'B03', 'B04'].map((description) => ({
    description,
    scale: 0.0001,
    offset: 0,
  })),
};

beforeAll(async () => {
  await writeCogFile(src, spec);
});

/** Our reader and GDAL agree on georeferencing, nodata, band names and every pixel of every level. */
async function expectSameAsGdal(file: string, tiff: GeoTiff): Promise<void> {
  const info = await gdalInfo(file);
  expect(tiff.width).toBe(info.size[0]);
  expect(tiff.height).toBe(info.size[1]);
  expect(tiff.geoTransform).toEqual(info.geoTransform);
  expect(tiff.epsg).toBe(info.stac?.['proj:epsg'] ?? null);
  expect(tiff.nodata).toBe(info.bands[0]!.noDataValue ?? null);
  expect(tiff.bandNames).toEqual(info.bands.map((b) => b.description ?? ''));
  expect(tiff.levels.slice(1).map((l) => [l.width, l.height])).toEqual(
    (info.bands[0]!.overviews ?? []).map((o) => o.size),
  );
  for (const level of [0, tiff.levels.length - 1]) {
    const l = tiff.levels[level]!;
    const gdal = await gdalPixels(file, { level });
    const ours = await tiff.readWindow(level, { x: 0, y: 0, width: l.width, height: l.height });
    expect(pixelDiff(ours, gdal), `level ${level}`).toBe('same');
  }
}

describe('reading what GDAL writes', () => {
  it('a COG (DEFLATE, predictor 2, 256 px tiles, overviews)', async () => {
    const file = path.join(dir, 'gdal-cog.tif');
    await gdalTranslate([
      '-of',
      'COG',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'PREDICTOR=2',
      '-co',
      'BLOCKSIZE=256',
      src,
      file,
    ]);
    const tiff = await openFile(file);
    expect(tiff.levels.length).toBeGreaterThan(1);
    expect(tiff.structural.LAYOUT).toBe('IFDS_BEFORE_DATA');
    expect(tiff.metadata.dataset).toMatchObject({
      SCENE_ID: 'S1',
      DATETIME: '2024-05-17T09:30:12Z',
    });
    expect(tiff.metadata.bands.map((b) => [b.scale, b.offset])).toEqual([
      [0.0001, 0],
      [0.0001, 0],
      [0.0001, 0],
    ]);
    await expectSameAsGdal(file, tiff);
  });

  it('a BigTIFF COG, and float32 with predictor 3', async () => {
    const big = path.join(dir, 'gdal-big.tif');
    await gdalTranslate([
      '-of',
      'COG',
      '-co',
      'BIGTIFF=YES',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'BLOCKSIZE=128',
      src,
      big,
    ]);
    const t1 = await openFile(big);
    expect(t1.bigTiff).toBe(true);
    await expectSameAsGdal(big, t1);
    const float = path.join(dir, 'gdal-float.tif');
    await gdalTranslate([
      '-of',
      'COG',
      '-ot',
      'Float32',
      '-scale',
      '0',
      '3000',
      '-1',
      '1',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'PREDICTOR=YES',
      src,
      float,
    ]);
    const t2 = await openFile(float);
    expect(t2.sampleType).toBe('float32');
    expect(t2.format.predictor).toBe(3);
    await expectSameAsGdal(float, t2);
  });

  it('plain GeoTIFFs: strips (big-endian, DEFLATE), uncompressed tiles, uint8', async () => {
    const strips = path.join(dir, 'gdal-strips-be.tif');
    await gdalTranslate([
      '-of',
      'GTiff',
      '-co',
      'ENDIANNESS=BIG',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'PREDICTOR=2',
      src,
      strips,
    ]);
    const t1 = await openFile(strips);
    expect(t1.littleEndian).toBe(false);
    expect(t1.levels[0]!.tiled).toBe(false);
    await expectSameAsGdal(strips, t1);
    const raw = path.join(dir, 'gdal-raw-byte.tif');
    await gdalTranslate([
      '-of',
      'GTiff',
      '-ot',
      'Byte',
      '-scale',
      '0',
      '3000',
      '0',
      '255',
      '-co',
      'TILED=YES',
      '-co',
      'BLOCKXSIZE=64',
      '-co',
      'BLOCKYSIZE=64',
      src,
      raw,
    ]);
    const t2 = await openFile(raw);
    expect(t2.sampleType).toBe('uint8');
    await expectSameAsGdal(raw, t2);
  });

  it('compression 32946 (the old DEFLATE code), PixelIsPoint and a rotated transform', async () => {
    // Our own DEFLATE COG with every IFD's Compression entry patched from 8 to 32946.
    const old = path.join(dir, 'deflate-old.tif');
    const written = await writeCogFile(old, {
      ...spec,
      compression: 'deflate',
      overviews: undefined,
    });
    const bytes = fs.readFileSync(old);
    for (const l of written.layout.levels) {
      const n = bytes.readUInt16LE(l.ifdOffset);
      for (let i = 0; i < n; i++) {
        const e = l.ifdOffset + 2 + i * 12;
        if (bytes.readUInt16LE(e) === Tag.Compression) bytes.writeUInt16LE(32946, e + 8);
      }
    }
    fs.writeFileSync(old, bytes);
    const t1 = await openFile(old);
    expect(t1.format.compression).toBe(32946);
    await expectSameAsGdal(old, t1);

    const point = path.join(dir, 'point.tif');
    await gdalTranslate(['-of', 'GTiff', '-mo', 'AREA_OR_POINT=Point', src, point]);
    await expectSameAsGdal(point, await openFile(point));

    const rotated = path.join(dir, 'rotated.tif');
    await writeCogFile(rotated, {
      ...spec,
      geoTransform: [300_000, 9.8, 1.2, 4_200_000, 1.5, -9.7],
    });
    const t3 = await openFile(rotated);
    expect(t3.geoTransform).toEqual([300_000, 9.8, 1.2, 4_200_000, 1.5, -9.7]);
    await expectSameAsGdal(rotated, t3);
  });
});

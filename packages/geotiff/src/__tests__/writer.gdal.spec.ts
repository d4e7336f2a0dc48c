/**
 * Our COG writer judged by GDAL: gdalinfo (CRS, geotransform, bands, descriptions, overviews,
 * nodata, scale/offset, metadata), the COG validator (leaders and trailers included), and
 * GDAL's pixels equal to ours (20 seeded points, a window, an overview).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gdalInfo, gdalLocationValues, gdalPixels, validateCog } from '../testing';
import type { CogSpec } from '../index';
import { openFile, patternTiles, pixelDiff, seeded, tempDir, writeCogFile } from './helpers';

const dir = tempDir();

const BANDS = ['B02', 'B03', 'B04', 'B08'];
const utmSpec: CogSpec = {
  width: 700,
  height: 530,
  bands: 4,
  sampleType: 'uint16',
  tileSize: 128,
  geoTransform: [499_980, 3, 0, 5_100_030, 0, -3],
  epsg: 32633,
  nodata: 0,
  metadata: {
    SCENE_ID: 'AUR1_20240517T093012_L2A',
    COLLECTION: 'col-aurora-l2a',
    NOTE: 'a<b & "c"',
  },
  bandMetadata: BANDS.map((description) => ({ description, scale: 0.0001, offset: 0 })),
};

describe('COG writer, judged by GDAL', () => {
  it('writes a valid COG GDAL reads with our CRS, grid, bands, overviews, nodata and metadata', async () => {
    const file = path.join(dir, 'utm-north.tif');
    const written = await writeCogFile(file, utmSpec);
    expect(written.layout.levels.map((l) => [l.width, l.height])).toEqual([
      [700, 530],
      [350, 265],
      [175, 133],
      [88, 67],
    ]);
    const v = await validateCog(file);
    expect(v.output).toContain('is a valid cloud optimized GeoTIFF');
    const info = await gdalInfo(file);
    expect(info.size).toEqual([700, 530]);
    expect(info.geoTransform).toEqual([499_980, 3, 0, 5_100_030, 0, -3]);
    expect(info.stac?.['proj:epsg']).toBe(32633);
    expect(info.metadata['']).toMatchObject({
      SCENE_ID: 'AUR1_20240517T093012_L2A',
      COLLECTION: 'col-aurora-l2a',
      NOTE: 'a<b & "c"',
      AREA_OR_POINT: 'Area',
    });
    expect(info.metadata.IMAGE_STRUCTURE).toMatchObject({
      COMPRESSION: 'DEFLATE',
      PREDICTOR: '2',
      LAYOUT: 'COG',
    });
    expect(info.bands.map((b) => b.description)).toEqual(BANDS);
    for (const b of info.bands) {
      expect(b.type).toBe('UInt16');
      expect(b.block).toEqual([128, 128]);
      expect(b.noDataValue).toBe(0);
      expect(b.scale).toBe(0.0001);
      expect(b.offset).toBe(0);
      expect(b.overviews?.map((o) => o.size)).toEqual([
        [350, 265],
        [175, 133],
        [88, 67],
      ]);
    }
  });

  it('gives at 20 seeded points the values gdallocationinfo gives', async () => {
    const file = path.join(dir, 'utm-north.tif');
    const tiff = await openFile(file);
    const rnd = seeded(20);
    const points = Array.from(
      { length: 20 },
      () => [499_980 + rnd() * 2100, 5_100_030 - rnd() * 1590] as const,
    );
    const gdal = await gdalLocationValues(file, points);
    const ours = await Promise.all(points.map(([x, y]) => tiff.valueAt(x, y)));
    expect(ours).toEqual(gdal);
  });

  it('reads a window and an overview pixel for pixel as GDAL does', async () => {
    const file = path.join(dir, 'utm-north.tif');
    const tiff = await openFile(file);
    const win = { x: 101, y: 77, width: 230, height: 190 };
    const gdal = await gdalPixels(file, { srcwin: [win.x, win.y, win.width, win.height] });
    const ours = await tiff.readWindow(0, win);
    expect(pixelDiff(ours, gdal)).toBe('same');
    const ovr = await gdalPixels(file, { level: 2 });
    const ours2 = await tiff.readWindow(2, { x: 0, y: 0, width: 175, height: 133 });
    expect(pixelDiff(ours2, ovr)).toBe('same');
  });

  it('writes UTM south, BigTIFF, float32 (predictor 3) and uint8 files GDAL reads the same', async () => {
    const cases: [string, CogSpec][] = [
      ['south.tif', { ...utmSpec, epsg: 32719, geoTransform: [360_000, 10, 0, 6_300_000, 0, -10] }],
      ['big.tif', { ...utmSpec, bigTiff: true }],
      ['float.tif', { ...utmSpec, sampleType: 'float32', nodata: -9999, bandMetadata: undefined }],
      [
        'byte.tif',
        { ...utmSpec, sampleType: 'uint8', bands: 3, bandMetadata: undefined, tileSize: 256 },
      ],
    ];
    for (const [name, spec] of cases) {
      const file = path.join(dir, name);
      await writeCogFile(file, spec);
      expect((await validateCog(file)).output, name).toContain(
        'is a valid cloud optimized GeoTIFF',
      );
      const info = await gdalInfo(file);
      expect(info.stac?.['proj:epsg'], name).toBe(spec.epsg);
      expect(info.geoTransform, name).toEqual([...spec.geoTransform]);
      const tiff = await openFile(file);
      expect(tiff.bigTiff, name).toBe(name === 'big.tif');
      const win = { x: 250, y: 120, width: 140, height: 150 };
      const gdal = await gdalPixels(file, { srcwin: [win.x, win.y, win.width, win.height] });
      const ours = await tiff.readWindow(0, win);
      expect(pixelDiff(ours, gdal), name).toBe('same');
    }
    const south = await gdalInfo(path.join(dir, 'south.tif'));
    expect(south.coordinateSystem?.wkt).toContain('UTM zone 19S');
  });

  it('leaves tiles sparse (no bytes) when the source has nothing there: GDAL and the validator read nodata', async () => {
    const file = path.join(dir, 'sparse.tif');
    const full = patternTiles(4, 'uint16');
    // Only tiles on the diagonal (every level) have pixels.
    await writeCogFile(file, utmSpec, (t) => (t.x === t.y ? full(t) : null));
    expect((await validateCog(file)).output).toContain('is a valid cloud optimized GeoTIFF');
    const tiff = await openFile(file);
    expect(tiff.levels[0]!.tileByteCounts[1]).toBe(0);
    const gdal = await gdalPixels(file, { srcwin: [100, 100, 200, 100] });
    const ours = await tiff.readWindow(0, { x: 100, y: 100, width: 200, height: 100 });
    expect(pixelDiff(ours, gdal)).toBe('same');
    expect(gdal.bands[0]![0]).not.toBe(0); // (100, 100) is in tile (0, 0)
    expect(gdal.bands[0]![199]).toBe(0); // (299, 100) is in tile (2, 0): sparse
  });
});

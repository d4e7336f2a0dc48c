/**
 * Window planning and window files: the tiles and byte ranges of an area, and the small COG
 * made of them, judged by GDAL: valid COG, same CRS and grid as the source, the scene's items,
 * level 0 equal to the same window cut from the source (pixel for pixel, and tile bytes
 * identical), overviews the mean of the window's pixels, tiles off the area sparse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { gdalInfo, gdalPixels, validateCog } from '../testing';
import {
  levelForResolution,
  mergeRanges,
  planWindow,
  readSceneItems,
  reflectanceBands,
  sceneItems,
  writeWindowCog,
  type CogSpec,
  type GeoTiff,
  type WindowPlan,
} from '../index';
import { fileSink, nodeCompression } from '../node';
import { openFile, patternTiles, pixelDiff, tempDir, writeCogFile } from './helpers';

const dir = tempDir();
const source = path.join(dir, 'scene.tif');
const T = 128;
const spec: CogSpec = {
  width: 900,
  height: 700,
  bands: 4,
  sampleType: 'uint16',
  tileSize: T,
  geoTransform: [600_000, 3, 0, 5_200_000, 0, -3],
  epsg: 32632,
  nodata: 0,
  metadata: sceneItems({
    sceneId: 'AUR1_X',
    datetime: '2024-06-01T10:00:00Z',
    collection: 'col-aurora-l2a',
    satellite: 'aurora-1',
  }),
  bandMetadata: reflectanceBands([
    { name: 'B02', commonName: 'blue', wavelengthNm: 490 },
    { name: 'B03', commonName: 'green', wavelengthNm: 560 },
    { name: 'B04', commonName: 'red', wavelengthNm: 665 },
    { name: 'B08', commonName: 'nir', wavelengthNm: 842 },
  ]),
};
let tiff: GeoTiff;

beforeAll(async () => {
  const full = patternTiles(4, 'uint16');
  // The top-right corner tiles are outside the scene's footprint: sparse, as the service writes them.
  await writeCogFile(source, spec, (t) =>
    t.level === 0 && t.x >= 6 && t.y === 0 ? null : full(t),
  );
  tiff = await openFile(source);
});

/** Reads the plan's ranges from the file, as a client would over HTTP, and cuts them into tiles. */
function fetchTiles(plan: WindowPlan): Map<string, Uint8Array> {
  const bytes = fs.readFileSync(source);
  const tiles = new Map<string, Uint8Array>();
  for (const r of plan.ranges) {
    const chunk = bytes.subarray(r.offset, r.offset + r.length);
    for (const i of r.tiles) {
      const t = plan.tiles[i]!;
      tiles.set(
        `${t.x},${t.y}`,
        chunk.subarray(t.offset - r.offset, t.offset - r.offset + t.byteCount),
      );
    }
  }
  return tiles;
}

async function writeWindow(file: string, plan: WindowPlan) {
  const tiles = fetchTiles(plan);
  const fh = await fs.promises.open(file, 'w+');
  try {
    return await writeWindowCog({
      tiff,
      plan,
      tileBytes: (x, y) => tiles.get(`${x},${y}`) ?? null,
      scene: { sourceUrl: 'http://127.0.0.1:9/rasters/scene.tif?expires=1&signature=secret' },
      sink: fileSink(fh),
      compression: nodeCompression,
    });
  } finally {
    await fh.close();
  }
}

describe('window planning', () => {
  it('gives the tiles of a bbox, their byte ranges merged over small gaps, and the header cost', () => {
    // x 600 150..600 600 (pixels 50..200), y 5 199 400..5 199 100 (rows 200..300)
    const plan = planWindow(tiff, {
      level: 0,
      area: { bbox: [600_150, 5_199_100, 600_600, 5_199_400] },
    });
    expect(plan.tiles.map((t) => [t.x, t.y])).toEqual([
      [0, 1],
      [1, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(plan.pixelWindow).toEqual({ x: 0, y: 128, width: 256, height: 256 });
    expect(plan.geoTransform).toEqual([600_000, 3, 0, 5_199_616, 0, -3]);
    // Tiles side by side in a row are 8 bytes apart (trailer + leader): one range per row.
    expect(plan.ranges).toHaveLength(2);
    expect(plan.tileBytes).toBe(plan.tiles.reduce((s, t) => s + t.byteCount, 0));
    expect(plan.rangeBytes).toBe(plan.tileBytes + 2 * 8);
    expect(plan.headerBytes).toBe(tiff.dataOffset);
    expect(plan.headerReads).toBe(1);
    expect(mergeRanges(plan.tiles, 0)).toHaveLength(4);
    expect(mergeRanges(plan.tiles, 1 << 20)).toHaveLength(1);
    expect(mergeRanges(plan.tiles, 1 << 20, plan.tiles[0]!.byteCount + 100)).toHaveLength(4);
  });

  it('keeps only the tiles a polygon meets, and picks a level for a resolution', () => {
    // A thin diagonal triangle across tiles (0..3, 0..3): its bbox rectangle has 16 tiles.
    const [x0, y0] = [600_000 + 10, 5_200_000 - 10];
    const d = 3 * 4 * T - 20;
    const plan = planWindow(tiff, {
      level: 0,
      area: {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [x0, y0],
              [x0 + 40, y0],
              [x0 + d, y0 - d],
              [x0, y0],
            ],
          ],
        },
      },
    });
    expect(plan.tileBox).toEqual({ x0: 0, y0: 0, x1: 4, y1: 4 });
    expect(plan.tiles.length).toBeLessThan(16);
    expect(plan.tiles.some((t) => t.x === 0 && t.y === 3)).toBe(false);
    expect(levelForResolution(tiff, 3)).toBe(0);
    expect(levelForResolution(tiff, 6.5)).toBe(1);
    expect(levelForResolution(tiff, 12)).toBe(2);
    expect(levelForResolution(tiff, 1)).toBe(0);
    expect(() => planWindow(tiff, { level: 0, area: { bbox: [0, 0, 10, 10] } })).toThrow(
      /does not meet/,
    );
  });
});

describe('window files, judged by GDAL', () => {
  it('copies the tiles byte for byte, equals the source window pixel for pixel, adds the scene items', async () => {
    const plan = planWindow(tiff, {
      level: 0,
      area: { bbox: [600_400, 5_198_500, 602_000, 5_199_700] },
    });
    const file = path.join(dir, 'window.tif');
    await writeWindow(file, plan);
    expect((await validateCog(file)).output).toContain('is a valid cloud optimized GeoTIFF');
    const info = await gdalInfo(file);
    const { x, y, width, height } = plan.pixelWindow;
    expect(info.size).toEqual([width, height]);
    expect(info.stac?.['proj:epsg']).toBe(32632);
    expect(info.geoTransform).toEqual([600_000 + 3 * x, 3, 0, 5_200_000 - 3 * y, 0, -3]);
    expect(info.bands.map((b) => b.description)).toEqual(['B02', 'B03', 'B04', 'B08']);
    expect(
      info.bands.every((b) => b.noDataValue === 0 && b.scale === 0.0001 && b.offset === 0),
    ).toBe(true);
    expect(info.bands[3]!.metadata?.['']).toMatchObject({
      COMMON_NAME: 'nir',
      WAVELENGTH_NM: '842',
    });
    expect(info.metadata['']).toMatchObject({
      SCENE_ID: 'AUR1_X',
      DATETIME: '2024-06-01T10:00:00Z',
      COLLECTION: 'col-aurora-l2a',
      SATELLITE: 'aurora-1',
      LEVEL: '0',
      RESOLUTION_M: '3',
      SOURCE_URL: 'http://127.0.0.1:9/rasters/scene.tif',
    });
    const gdalWindow = await gdalPixels(file);
    const gdalSource = await gdalPixels(source, { srcwin: [x, y, width, height] });
    expect(pixelDiff(gdalWindow, gdalSource)).toBe('same');
    const win = await openFile(file);
    expect(readSceneItems(win.metadata)).toMatchObject({
      sceneId: 'AUR1_X',
      level: 0,
      resolutionM: 3,
    });
    for (const t of plan.tiles)
      expect(
        Buffer.from((await win.readTileBytes(0, t.x - plan.tileBox.x0, t.y - plan.tileBox.y0))!),
      ).toEqual(Buffer.from((await tiff.readTileBytes(0, t.x, t.y))!));
    // Overviews: the mean of 2 x 2 window pixels (nodata left out), as GDAL reads them.
    const ovr = await gdalPixels(file, { level: 1 });
    const w = gdalWindow.width;
    for (const [ox, oy] of [
      [0, 0],
      [17, 9],
      [Math.floor(ovr.width / 2), Math.floor(ovr.height / 2)],
    ] as const) {
      const px = [0, 1].flatMap((dy) =>
        [0, 1].map((dx) => gdalWindow.bands[2]![(oy * 2 + dy) * w + ox * 2 + dx]!),
      );
      const valid = px.filter((v) => v !== 0);
      expect(ovr.bands[2]![oy * ovr.width + ox]).toBe(
        valid.length ? Math.round(valid.reduce((a, b) => a + b) / valid.length) : 0,
      );
    }
  });

  it('cuts a window of an overview, and leaves the tiles a polygon misses (and the source has sparse) empty', async () => {
    const plan = planWindow(tiff, {
      level: 1,
      area: { bbox: [600_500, 5_198_000, 602_200, 5_199_900] },
    });
    const file = path.join(dir, 'window-ovr.tif');
    await writeWindow(file, plan);
    expect((await validateCog(file)).output).toContain('is a valid cloud optimized GeoTIFF');
    const { x, y, width, height } = plan.pixelWindow;
    expect(
      pixelDiff(
        await gdalPixels(file),
        await gdalPixels(source, { level: 1, srcwin: [x, y, width, height] }),
      ),
    ).toBe('same');
    expect((await gdalInfo(file)).metadata['']).toMatchObject({ LEVEL: '1', RESOLUTION_M: '6' });

    // An L-shaped polygon over tiles (4..7, 0..1) of level 0: (6, 0) and (7, 0) are sparse in the
    // source, (4, 1) and (5, 1) miss the polygon.
    const X = (c: number) => 600_000 + 3 * c;
    const Y = (r: number) => 5_200_000 - 3 * r;
    const ring = [
      [X(520), Y(10)],
      [X(1000), Y(10)],
      [X(1000), Y(250)],
      [X(780), Y(250)],
      [X(780), Y(120)],
      [X(520), Y(120)],
      [X(520), Y(10)],
    ];
    const lplan = planWindow(tiff, {
      level: 0,
      area: { geometry: { type: 'Polygon', coordinates: [ring] } },
    });
    expect(lplan.tileBox).toEqual({ x0: 4, y0: 0, x1: 8, y1: 2 });
    expect(lplan.tiles.map((t) => `${t.x},${t.y}:${t.byteCount > 0 ? 'data' : 'sparse'}`)).toEqual([
      '4,0:data',
      '5,0:data',
      '6,0:sparse',
      '7,0:sparse',
      '6,1:data',
      '7,1:data',
    ]);
    const lfile = path.join(dir, 'window-l.tif');
    await writeWindow(lfile, lplan);
    expect((await validateCog(lfile)).output).toContain('is a valid cloud optimized GeoTIFF');
    const win = await openFile(lfile);
    expect(Array.from(win.levels[0]!.tileByteCounts).map((n) => (n > 0 ? 1 : 0))).toEqual([
      1, 1, 0, 0, 0, 0, 1, 1,
    ]);
    const g = await gdalPixels(lfile);
    const src = await gdalPixels(source, { srcwin: [4 * T, 0, g.width, g.height] });
    const at = (p: { width: number; bands: number[][] }, c: number, r: number) =>
      p.bands[0]![r * p.width + c];
    expect(at(g, 10, 10)).toBe(at(src, 10, 10)); // tile (4, 0): copied
    expect(at(g, 10, 10)).not.toBe(0);
    expect(at(g, 10, T + 10)).toBe(0); // tile (4, 1): off the polygon
    expect(at(g, 2 * T + 10, T + 10)).toBe(at(src, 2 * T + 10, T + 10)); // tile (6, 1)
  });
});

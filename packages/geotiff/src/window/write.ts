/**
 * A site window as a small COG (the stored raster format, README): the source's tiles of a
 * plan copied as they are (no recompression: byte for byte the service's), the tiles of the
 * window's rectangle that miss the area left sparse, overviews computed from the window, and
 * the source's CRS, grid, bands, nodata and metadata plus the scene items.
 */
import type { Compression } from '../codec';
import { fail } from '../errors';
import type { GeoTiff } from '../read/geotiff';
import { SCENE_ITEMS, sceneItems, type SceneRasterInfo } from '../scene-format';
import { COMPRESSION_NONE } from '../tiff/tags';
import { writeCog, type PositionalSink, type TileData, type WrittenCog } from '../write/cog';
import type { CogSpec } from '../write/spec';
import { downsampleInto, emptyLevel, halve, tileOf, type LevelImage } from './overviews';
import type { WindowPlan } from './plan';

export interface WindowWrite {
  /** The opened source (the scene's COG). */
  readonly tiff: GeoTiff;
  readonly plan: WindowPlan;
  /** The stored bytes of a planned tile, as fetched (null: sparse in the source). */
  readonly tileBytes: (x: number, y: number) => Promise<Uint8Array | null> | Uint8Array | null;
  /**
   * Scene items to write (over the source's own items): the scene id, datetime, collection,
   * satellite... and `sourceUrl` (its query string is dropped). LEVEL and RESOLUTION_M are set
   * from the plan.
   */
  readonly scene?: Partial<SceneRasterInfo>;
  readonly sink: PositionalSink;
  readonly compression: Compression;
}

/** Writes the window of `plan` as a COG; the source's tiles are asked for twice (overviews, then copy). */
export async function writeWindowCog(w: WindowWrite): Promise<WrittenCog> {
  const { tiff, plan, compression } = w;
  const l = tiff.level(plan.level);
  if (!l.tiled || l.tileWidth !== l.tileHeight)
    fail(
      'unsupported',
      'a window copies square tiles: this source is stripped or has rectangular tiles',
    );
  const size = l.tileWidth;
  const { format, nodata } = tiff;
  // Tiles are copied byte for byte only when their bytes mean the same in our little-endian file.
  const copy = tiff.littleEndian || format.sampleType === 'uint8' || format.sampleType === 'int8';
  const present = new Set(plan.tiles.filter((t) => t.byteCount > 0).map((t) => `${t.x},${t.y}`));
  const fetch = async (x: number, y: number) =>
    present.has(`${x},${y}`) ? w.tileBytes(x, y) : null;

  const { x: px, y: py, width, height } = plan.pixelWindow;
  const gt = plan.geoTransform;
  const resolution = Math.hypot(gt[1], gt[4]);
  const spec: CogSpec = {
    width,
    height,
    bands: format.bands,
    sampleType: format.sampleType,
    tileSize: size,
    geoTransform: gt,
    epsg: tiff.epsg ?? fail('unsupported', 'the source has no EPSG code to write'),
    ...(tiff.crsName ? { crsName: tiff.crsName } : {}),
    nodata,
    metadata: {
      ...tiff.metadata.dataset,
      ...sceneItems({
        ...w.scene,
        level: (Number(tiff.metadata.dataset[SCENE_ITEMS.level]) || 0) + plan.level,
        resolutionM: Math.round(resolution * 1e6) / 1e6,
      }),
    },
    bandMetadata: tiff.metadata.bands,
    compression: format.compression === COMPRESSION_NONE ? 'none' : 'deflate',
    predictor: format.predictor as 1 | 2 | 3,
  };

  // Level 1 of the window, from its full-resolution tiles one at a time; then halving in memory.
  const levels: LevelImage[] = [];
  if (width > size || height > size) {
    const l1 = emptyLevel(
      Math.ceil(width / 2),
      Math.ceil(height / 2),
      format.bands,
      format.sampleType,
      nodata,
    );
    for (let ty = plan.tileBox.y0; ty < plan.tileBox.y1; ty++)
      for (let tx = plan.tileBox.x0; tx < plan.tileBox.x1; tx++) {
        const stored = await fetch(tx, ty);
        if (stored === null) continue;
        const tile = tiff.decodeTileBytes(plan.level, tx, ty, stored);
        downsampleInto(
          tile,
          size,
          tx * size - px,
          ty * size - py,
          width,
          height,
          l1,
          format.sampleType,
          nodata,
        );
      }
    levels.push(l1);
    let last = l1;
    while (last.width > size || last.height > size) {
      last = halve(last, format.sampleType, nodata);
      levels.push(last);
    }
  }

  return writeCog(
    { ...spec, overviews: levels.length },
    async (t): Promise<TileData> => {
      if (t.level > 0)
        return tileOf(levels[t.level - 1]!, t.x, t.y, size, format.sampleType, nodata);
      const sx = plan.tileBox.x0 + t.x;
      const sy = plan.tileBox.y0 + t.y;
      const stored = await fetch(sx, sy);
      if (stored === null) return null;
      return copy ? { encoded: stored } : tiff.decodeTileBytes(plan.level, sx, sy, stored);
    },
    w.sink,
    compression,
  );
}

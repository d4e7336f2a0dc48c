/**
 * An index over a stored offline raster written as a float32 COG on the same grid, one band per
 * component, NaN where it is undefined (nodata, a division by zero) and GDAL_NODATA `nan`, with
 * the code the map and the pixel inspector use (`shared/raster-index.ts`), so its values are
 * the app's; its overviews are the index of the window's overviews, as the map draws them.
 * Run in a thread of its own (raster-index-in-worker.ts): the compute of a large window never
 * holds the backend's event loop. The stored file is read with bounded limits: a damaged or
 * hostile file, or a window past `maxPixels`, is refused with its reason.
 */
import {
  GeoTiffError,
  openGeoTiff,
  planCog,
  REFLECTANCE,
  writeCog,
  type CogSpec,
  type GeoTiff,
  type ReadLimits,
  type TileRequest,
} from '@eo/geotiff';
import { fileSink, fileSource, nodeCompression } from '@eo/geotiff/node';
import type fsp from 'node:fs/promises';
import { indexOfTile, kernelOf, type Plane } from '../shared/raster-index';

/** What to compute: the contract's `rasters.export` index. */
export interface IndexRequest {
  readonly name: string;
  readonly expression: string;
  readonly bandMap: readonly number[];
}

/** Why an index cannot be written from this input (what the caller answers as a bad argument). */
export class IndexRefusal extends Error {
  constructor(
    message: string,
    /** The argument at fault (`index.expression`, `id`...). */
    readonly path: string,
  ) {
    super(message);
    this.name = 'IndexRefusal';
  }
}

/** Limits of what is read from the stored file (the stored format's are far below). */
const READ_LIMITS: Partial<ReadLimits> = {
  maxTileBytes: 8 * 1024 * 1024,
  maxBands: 64,
  maxHeaderBytes: 8 * 1024 * 1024,
  maxImageSide: 1 << 16,
};

/** The index's spec: the window's grid, float32, NaN nodata, its overviews where it can. */
function indexSpec(tiff: GeoTiff, index: IndexRequest, components: number): CogSpec {
  const names = kernelOf(index.expression).bands;
  const rgb = ['red', 'green', 'blue'];
  const base: CogSpec = {
    width: tiff.width,
    height: tiff.height,
    bands: components,
    sampleType: 'float32',
    tileSize: 512,
    geoTransform: tiff.geoTransform!,
    epsg: tiff.epsg!,
    nodata: NaN,
    metadata: {
      ...tiff.metadata.dataset,
      INDEX_NAME: index.name,
      INDEX_EXPRESSION: index.expression,
      INDEX_BANDS: names.map((n, k) => `${n}=${tiff.bandNames[index.bandMap[k]!]}`).join(','),
    },
    bandMetadata: Array.from({ length: components }, (_, c) => ({
      description: components === 1 ? index.name : `${index.name} ${rgb[c]}`,
    })),
    overviews: tiff.levels.length - 1,
  };
  // Its overviews are the window's (the same sizes), else it has none.
  const same = planCog(base).levels.every(
    (l, i) => l.width === tiff.levels[i]?.width && l.height === tiff.levels[i]?.height,
  );
  return same ? base : { ...base, overviews: 0 };
}

/** The kernel of a request that fits a raster of `bandCount` bands, or the refusal. */
function checkedKernel(index: IndexRequest, bandCount: number) {
  let kernel;
  try {
    kernel = kernelOf(index.expression);
  } catch (e) {
    throw new IndexRefusal(
      `the index does not parse: ${e instanceof Error ? e.message : e}`,
      'index.expression',
    );
  }
  if (kernel.bands.length !== index.bandMap.length)
    throw new IndexRefusal(
      `the expression reads ${kernel.bands.length} bands; bandMap names ${index.bandMap.length}`,
      'index.bandMap',
    );
  if (index.bandMap.some((b) => b >= bandCount))
    throw new IndexRefusal(`the raster has ${bandCount} bands`, 'index.bandMap');
  return kernel;
}

/** Writes the index of `tiff` to `target`; its size in bytes. */
async function writeIndex(
  tiff: GeoTiff,
  index: IndexRequest,
  target: fsp.FileHandle,
): Promise<number> {
  const kernel = checkedKernel(index, tiff.bandCount);
  const scales = Array.from({ length: tiff.bandCount }, (_, b) => ({
    scale: tiff.metadata.bands[b]?.scale ?? REFLECTANCE.scale,
    offset: tiff.metadata.bands[b]?.offset ?? 0,
  }));
  const read = [...new Set(index.bandMap)];
  const components = kernel.components;
  const spec = indexSpec(tiff, index, components);

  const tile = async (t: TileRequest) => {
    const x = t.x * t.tileSize;
    const y = t.y * t.tileSize;
    const width = Math.min(t.tileSize, t.levelWidth - x);
    const height = Math.min(t.tileSize, t.levelHeight - y);
    const got = await tiff.readWindow(t.level, { x, y, width, height }, read);
    const planes: Plane[] = [];
    read.forEach((b, j) => (planes[b] = got.bands[j]!));
    const values = indexOfTile(
      kernel,
      planes,
      width * height,
      index.bandMap,
      scales,
      tiff.nodata,
    ).components;
    const out = new Float32Array(t.tileSize * t.tileSize * components).fill(NaN);
    let any = false;
    for (let row = 0; row < height; row++)
      for (let col = 0; col < width; col++) {
        const o = (row * t.tileSize + col) * components;
        for (let c = 0; c < components; c++) {
          const v = values[c]![row * width + col]!;
          out[o + c] = v;
          if (v === v) any = true;
        }
      }
    // Nothing defined: a sparse tile (readers see the nodata, NaN).
    return any ? out : null;
  };
  return (await writeCog(spec, tile, fileSink(target), nodeCompression)).size;
}

/**
 * Opens the stored file `source` and writes the index to `target` (both open); its bytes. A
 * file that cannot be read, has no georeferencing, or holds more than `maxPixels` pixels is an
 * `IndexRefusal` with the reason.
 */
export async function writeIndexFile(
  source: fsp.FileHandle,
  target: fsp.FileHandle,
  index: IndexRequest,
  maxPixels: number,
): Promise<number> {
  let tiff: GeoTiff;
  try {
    tiff = await openGeoTiff(await fileSource(source), {
      compression: nodeCompression,
      limits: READ_LIMITS,
    });
  } catch (e) {
    throw new IndexRefusal(
      `the stored raster cannot be read: ${e instanceof Error ? e.message : e}`,
      'id',
    );
  }
  if (!tiff.geoTransform || tiff.epsg === null)
    throw new IndexRefusal('the raster has no georeferencing', 'id');
  if (tiff.width * tiff.height > maxPixels)
    throw new IndexRefusal(
      `the raster is ${tiff.width} x ${tiff.height} pixels; an index is exported for at most ${maxPixels.toLocaleString('en')} pixels: take a smaller area offline`,
      'id',
    );
  try {
    return await writeIndex(tiff, index, target);
  } catch (e) {
    if (!(e instanceof GeoTiffError)) throw e;
    // A tile that fails to decode: the stored file is damaged.
    throw new IndexRefusal(
      `the stored raster cannot be read: ${e instanceof Error ? e.message : e}`,
      'id',
    );
  }
}

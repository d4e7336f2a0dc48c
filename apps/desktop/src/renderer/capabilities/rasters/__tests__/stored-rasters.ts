/**
 * Offline rasters as `rasters.list` lists them, for the renderer's specs: a stored window of a
 * site (its header as the backend reads it) on a date, and the store set to show one.
 */
import type { OfflineRasterView, RasterBandView } from '../../../../shared/contract';
import type { RasterInfo } from '../raster-engine';

const BANDS: RasterBandView[] = [
  { name: 'B02', commonName: 'blue', wavelengthNm: 490 },
  { name: 'B03', commonName: 'green', wavelengthNm: 560 },
  { name: 'B04', commonName: 'red', wavelengthNm: 665 },
  { name: 'B08', commonName: 'nir', wavelengthNm: 842 },
];

/** A stored 1024 px window at 10 m near Lausanne (UTM 32N), on `datetime`. */
export function storedRaster(
  id: string,
  opts: {
    datetime?: string;
    bounds?: [number, number, number, number];
    label?: string;
    bands?: RasterBandView[];
  } = {},
): OfflineRasterView {
  return {
    id,
    state: 'stored',
    scene: { kind: 'catalog', ref: `scene-${id}`, sceneId: `scene-${id}` },
    areaLabel: opts.label ?? 'Field 7',
    resolution: 'native',
    bytes: 2_400_000,
    plannedBytes: 2_400_000,
    fetchedBytes: 2_400_000,
    message: null,
    createdAt: 1,
    storedAt: 2,
    problem: null,
    raster: {
      epsg: 32632,
      width: 1024,
      height: 1024,
      geoTransform: [320_000, 10, 0, 5_160_000, 0, -10],
      bounds: opts.bounds ?? [6.63, 46.5, 6.77, 46.6],
      levels: [
        { width: 1024, height: 1024 },
        { width: 512, height: 512 },
      ],
      bands: opts.bands ?? BANDS,
      nodata: 0,
      sceneId: `scene-${id}`,
      datetime: opts.datetime ?? '2024-06-12T10:31:05Z',
      satellite: 'aurora-1',
      collection: 'aurora',
      cloudCover: 3,
      resolutionM: 10,
    },
  };
}

/** What the raster worker says of such a window when it opens it. */
export function rasterInfo(): RasterInfo {
  const gt = [320_000, 10, 0, 5_160_000, 0, -10] as const;
  return {
    placement: {
      epsg: 32632,
      levels: [
        { width: 1024, height: 1024, geoTransform: [...gt] },
        { width: 512, height: 512, geoTransform: [gt[0], 20, 0, gt[3], 0, -20] },
      ],
    },
    levels: [
      { width: 1024, height: 1024, tileWidth: 512, tileHeight: 512 },
      { width: 512, height: 512, tileWidth: 512, tileHeight: 512 },
    ],
    bandCount: 4,
    nodata: 0,
    scales: Array.from({ length: 4 }, () => ({ scale: 0.0001, offset: 0 })),
  };
}

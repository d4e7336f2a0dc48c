/**
 * @eo/geotiff: GeoTIFF and Cloud-Optimized GeoTIFF in pure TypeScript (no Node, no DOM), for
 * the service, sync and the desktop (backend, and the renderer's workers). Compression is
 * injected (`Compression`; Node's zlib is `@eo/geotiff/node`). See README.md.
 */
export * from './errors';
export * from './codec';
export * from './limits';
export * from './geo';
export * from './crs';
export * from './metadata';
export type { SampleType, Samples } from './tiff/samples';
export { SAMPLE_BYTES, allocSamples } from './tiff/samples';

export type { RangeSource } from './read/source';
export { bufferSource } from './read/source';
export type { RasterLevel } from './read/levels';
export type { TileFormat } from './read/decode';
export { GeoTiff, type GeoTiffInfo, type PixelWindow, type BandArrays } from './read/geotiff';
export { openGeoTiff, type OpenOptions } from './read/open';

export type { CogSpec } from './write/spec';
export {
  DEFAULT_TILE_SIZE,
  planCog,
  cogHeader,
  tileOrder,
  tileOffsetsFor,
  type CogLayout,
  type LevelLayout,
} from './write/layout';
export { encodeTile } from './write/encode';
export {
  writeCog,
  tileSlot,
  type PositionalSink,
  type TileRequest,
  type TileData,
  type TileSource,
  type WrittenCog,
} from './write/cog';

export * from './scene-format';
export * from './window/plan';
export { writeWindowCog, type WindowWrite } from './window/write';

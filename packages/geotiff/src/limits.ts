/**
 * What the reader accepts from a file it does not trust (a download, a service's answer).
 * Every count and size a file declares is checked against these before anything is
 * allocated or read, so a hostile file costs bounded memory and time.
 */
export interface ReadLimits {
  /** IFDs in the chain (full resolution, overviews, masks). */
  readonly maxIfds: number;
  /** Tags in one IFD. */
  readonly maxTagsPerIfd: number;
  /** Values of one tag (e.g. tile offsets: one per tile). */
  readonly maxTagValues: number;
  /** Bytes of one ASCII tag (GDAL_METADATA, GeoAsciiParams). */
  readonly maxAsciiBytes: number;
  /** Width or height of an image, pixels. */
  readonly maxImageSide: number;
  /** Bytes of one decoded tile (or strip). */
  readonly maxTileBytes: number;
  /** Bytes of structure (header, IFDs, their values) read while opening. */
  readonly maxHeaderBytes: number;
  /** Bytes of decoded pixels one `readWindow` call may produce. */
  readonly maxDecodedBytes: number;
  /** Samples per pixel (bands). */
  readonly maxBands: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxIfds: 64,
  maxTagsPerIfd: 512,
  maxTagValues: 4_000_000,
  maxAsciiBytes: 1 << 20,
  maxImageSide: 1 << 20,
  maxTileBytes: 64 << 20,
  maxHeaderBytes: 64 << 20,
  maxDecodedBytes: 1 << 30,
  maxBands: 1024,
};

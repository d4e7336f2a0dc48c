/**
 * Every failure of the codec is a `GeoTiffError` with a `code` a caller can branch on and a
 * message that says what was wrong with the file (never a stack of a half-read structure).
 */
export type GeoTiffErrorCode =
  /** Not a TIFF at all (bad byte-order mark or magic number). */
  | 'not-tiff'
  /** The file ends before a structure it declares (a header, an IFD, a value, a tile). */
  | 'truncated'
  /** The IFD chain loops back on itself. */
  | 'ifd-cycle'
  /** A declared size or count passes one of the reader's limits (`ReadLimits`). */
  | 'limit'
  /** A structure is inconsistent (missing tags, wrong counts, impossible values). */
  | 'corrupt'
  /** A valid TIFF using something this codec does not read (LZW, planar, 12-bit...). */
  | 'unsupported'
  /** A tile's compressed bytes do not decode to the size the tags announce. */
  | 'decode'
  /** A caller's argument is out of range (a level, a tile, a window). */
  | 'argument';

export class GeoTiffError extends Error {
  override readonly name = 'GeoTiffError';
  constructor(
    readonly code: GeoTiffErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function fail(code: GeoTiffErrorCode, message: string): never {
  throw new GeoTiffError(code, message);
}

/**
 * Compression is injected, so the codec has no platform dependency: the service and sync pass
 * Node's zlib (`@eo/geotiff/node`), a browser worker passes a pure-JS inflater (e.g. fflate).
 * Both directions are zlib streams (RFC 1950), which is what TIFF compression 8 (Adobe
 * DEFLATE) and 32946 (the older DEFLATE code) hold.
 */
export interface Compression {
  /**
   * Inflates a zlib stream. Must not produce more than `maxBytes` (a tile's decoded size):
   * throw (any error) as soon as the output would pass it, so a "deflate bomb" costs bounded
   * memory and time. Throws on a corrupt stream.
   */
  inflate(bytes: Uint8Array, maxBytes: number): Uint8Array;
  /** Deflates into a zlib stream at `level` (1 fastest .. 9 smallest). Deterministic. */
  deflate(bytes: Uint8Array, level: number): Uint8Array;
}

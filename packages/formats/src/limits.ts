/**
 * Local bounds of an import (the service's geometry caps stay in `LIMITS` of @eo/domain). They
 * keep a bad or hostile file from taking the backend's memory: a zip bomb stops at its declared
 * sizes, a file of millions of tiny features stops at its count. Callers may lower them.
 */
export interface ImportLimits {
  /** Bytes of the file as given (a 100,000-parcel Shapefile zip is ~50 MB). */
  readonly maxFileBytes: number;
  /** Features read from one file. */
  readonly maxFeatures: number;
  /** Positions over all features of one file. */
  readonly maxTotalVertices: number;
  /** Entries of a zip (KMZ, zipped Shapefile). */
  readonly maxZipEntries: number;
  /** Bytes of all entries of a zip once inflated. */
  readonly maxUncompressedBytes: number;
  /**
   * Bytes of a text format read whole (GeoJSON, KML, GPX, CSV given as bytes, the KML inside a
   * KMZ): parsed, such text takes several times its size in memory.
   */
  readonly maxTextBytes: number;
  /** Bytes of one attribute value of a GeoPackage row (text or blob). */
  readonly maxCellBytes: number;
  /**
   * Characters of one feature of a GeoJSON file read as a stream (and of its other members
   * together): a feature's text is parsed alone, so it is what a reader holds at once.
   */
  readonly maxFeatureBytes: number;
  /** Bytes of one GeoPackage geometry blob (10,000 positions, the service's cap, are ~160 kB). */
  readonly maxGeometryBytes: number;
}

export const IMPORT_LIMITS: ImportLimits = {
  maxFileBytes: 256 * 1024 * 1024,
  maxFeatures: 200_000,
  maxTotalVertices: 20_000_000,
  maxZipEntries: 256,
  maxUncompressedBytes: 256 * 1024 * 1024,
  maxTextBytes: 64 * 1024 * 1024,
  maxCellBytes: 1024 * 1024,
  maxGeometryBytes: 16 * 1024 * 1024,
  maxFeatureBytes: 16 * 1024 * 1024,
};

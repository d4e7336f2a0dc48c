/** What an import hands back: a preview of the file's features, each checked as an area. */
import type { Geometry } from '@eo/domain';
import type { Scalar } from './write/feature';

export const IMPORT_FORMATS = [
  'geojson',
  'kml',
  'kmz',
  'gpx',
  'shapefile',
  'geopackage',
  'csv',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** A feature as read, in WGS 84 longitude/latitude, before any area check. */
export interface RawFeature {
  readonly geometry: Geometry | null;
  readonly properties: Readonly<Record<string, Scalar>>;
  /** Why the feature's geometry could not be read at all (the rest of the file could). */
  readonly unreadable?: string | undefined;
}

export interface PreviewFeature {
  /** 1-based position in the file (what messages name). */
  readonly index: number;
  /** From `--name-field` / the name option, else name/Name/NAME/title/id, else "<file> <index>". */
  readonly name: string;
  readonly properties: Readonly<Record<string, Scalar>>;
  /** As read (WGS 84). */
  readonly geometry: Geometry | null;
  /** The checked and repaired area, or null when refused (see `problem`). */
  readonly area: Geometry | null;
  /** Unambiguous repairs made to get `area` ("closed ring 1", "removed 2 repeated positions"). */
  readonly repairs: readonly string[];
  /** Why the feature cannot be an area, or null. */
  readonly problem: string | null;
}

export interface ImportPreview {
  readonly file: string;
  readonly format: ImportFormat;
  /** The source CRS when the file named one that is not WGS 84 (reprojected). */
  readonly sourceCrs: string | null;
  /** What was assumed while reading the file as a whole ("x.shp: no .prj: read as WGS 84 lon/lat"). */
  readonly warnings: readonly string[];
  readonly features: readonly PreviewFeature[];
}

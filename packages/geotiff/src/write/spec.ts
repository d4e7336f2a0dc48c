/** What a COG to write is: size, bands, sample type, tiling, compression, georeferencing, metadata. */
import type { GeoTransform } from '../geo';
import type { BandMetadata } from '../metadata';
import type { SampleType } from '../tiff/samples';

export interface CogSpec {
  readonly width: number;
  readonly height: number;
  /** Samples per pixel (bands), pixel-interleaved. */
  readonly bands: number;
  readonly sampleType: SampleType;
  /** Square tiles of this many pixels (a multiple of 16; default 512). */
  readonly tileSize?: number;
  readonly geoTransform: GeoTransform;
  /** EPSG code of the CRS; projected unless `geographic`. */
  readonly epsg: number;
  /** The EPSG code is a geographic (lon/lat) CRS (default: only for 4326). */
  readonly geographic?: boolean;
  /** The CRS's name (GTCitationGeoKey; default `WGS 84 / UTM zone ..` for UTM codes). */
  readonly crsName?: string;
  readonly nodata?: number | null;
  /** Dataset items of GDAL_METADATA. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Per-band description (band name), scale, offset and items. */
  readonly bandMetadata?: readonly BandMetadata[];
  /** 'deflate' (default) or 'none'. */
  readonly compression?: 'deflate' | 'none';
  /** zlib level 1..9 (default 6). */
  readonly deflateLevel?: number;
  /** 1 none, 2 horizontal (default for integers), 3 floating point (default for floats). */
  readonly predictor?: 1 | 2 | 3;
  /** Overviews to write (default: halve until the level fits one tile). */
  readonly overviews?: number;
  /** Force BigTIFF on or off; default: on when the file could pass 4 GiB. */
  readonly bigTiff?: boolean;
}

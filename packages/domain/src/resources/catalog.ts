/** Catalog records (spec 2.10) and archive collection items (spec 2.11). */
import { z } from 'zod';
import { Geometry } from '../geometry';
import { IsoTimestamp } from '../time/schemas';
import { Id, Link, NumberArray, StringArray } from './common';

const str = z.string().nullish();
const num = z.number().nullish();

/** Every property key listed in 2.10; unknown keys are kept. */
export const CatalogProperties = z.looseObject({
  constellation: str,
  created: str,
  datetime: str,
  'eo:cloud_cover': num,
  gsd: num,
  'proj:epsg': num,
  'sat:relative_orbit': num,
  'view:off_nadir': num,
  'view:satellite_look_angle': num,
  'view:sun_azimuth': num,
  'view:sun_elevation': num,
  instruments: StringArray.nullish(),
  platform: str,
  'proj:wkt2': str,
  'sat:orbit_state': str,
  'sci:doi': str,
  updated: str,
  'proj:shape': NumberArray.nullish(),
  'proj:transform': NumberArray.nullish(),
});
export type CatalogProperties = z.infer<typeof CatalogProperties>;

/** A STAC asset: href plus anything else. */
export const StacAsset = z.looseObject({
  href: z.string(),
  type: z.string().nullish(),
  title: z.string().nullish(),
  roles: StringArray.nullish(),
});

export const StacItem = z.looseObject({
  assets: z.record(z.string(), StacAsset),
  bbox: NumberArray.nullish(),
  collection: z.string().nullish(),
  geometry: Geometry.nullable(),
  id: z.string(),
  links: z.array(Link).default([]),
  properties: CatalogProperties,
  stac_extensions: StringArray.default([]),
  stac_version: z.string().nullish(),
  type: z.string(),
});
export type StacItem = z.infer<typeof StacItem>;

export const CatalogRecord = z.looseObject({
  id: Id,
  area: num,
  bandset_id: str,
  task_id: str,
  org_id: str,
  delivery_status: str,
  details: StacItem,
  created_at: IsoTimestamp.nullish(),
  updated_at: IsoTimestamp.nullish(),
  created_by: str,
  updated_by: str,
});
export type CatalogRecord = z.infer<typeof CatalogRecord>;

/** Number, or a numeric string as the spec's sample bbox holds. */
export const NumericLike = z.union([
  z.number(),
  z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'expected a number or a numeric string'),
]);

/** Every property key listed in 2.11; unknown keys are kept. */
export const ArchiveProperties = z.looseObject({
  altitude: num,
  'eo:cloud_cover': num,
  gsd: num,
  'rd:anomalous_pixels': num,
  'rd:earth_sun_distance': num,
  'view:off_nadir': num,
  'view:scene_center_lat': num,
  'view:scene_center_lon': num,
  'view:sun_azimuth': num,
  'view:sun_elevation': num,
  constellation: str,
  created: str,
  datetime: str,
  description: str,
  license: str,
  platform: str,
  'proj:code': str,
  'rd:product_level': str,
  'rd:sat_id': str,
  'rd:type': str,
  'sci:doi': str,
  startdatetime: str,
  title: str,
  updated: str,
  instruments: StringArray.nullish(),
  'proj:shape': NumberArray.nullish(),
  'proj:transform': NumberArray.nullish(),
});
export type ArchiveProperties = z.infer<typeof ArchiveProperties>;

export const ArchiveFeature = z.looseObject({
  id: z.string(),
  type: z.literal('Feature'),
  collection: z.string().nullish(),
  stac_version: z.string().nullish(),
  stac_extensions: StringArray.default([]),
  bbox: z.array(NumericLike).nullish(),
  geometry: Geometry.nullable(),
  assets: z.record(z.string(), StacAsset).default({}),
  links: z.array(Link).default([]),
  properties: ArchiveProperties,
});
export type ArchiveFeature = z.infer<typeof ArchiveFeature>;

export const ArchiveFeatureCollection = z.looseObject({
  type: z.string(),
  features: z.array(ArchiveFeature),
  links: z.array(Link).default([]),
});
export type ArchiveFeatureCollection = z.infer<typeof ArchiveFeatureCollection>;

/** bbox values as numbers, whether the service sent numbers or numeric strings. */
export function bboxNumbers(
  bbox: ReadonlyArray<number | string> | null | undefined,
): number[] | null {
  if (!bbox) return null;
  return bbox.map((v) => (typeof v === 'number' ? v : Number(v)));
}

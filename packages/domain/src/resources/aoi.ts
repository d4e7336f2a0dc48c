/** AOIs, their assets, visualizations and indices (spec 2.6 - 2.9). */
import { z } from 'zod';
import {
  AoiStatus,
  ExpressionType,
  IndexType,
  VisualizationStatus,
  VisualizationType,
} from '../enums';
import { Geometry } from '../geometry';
import { AssetDate, MicroTimestamp } from '../time/schemas';
import { Centroid, Id, IntArray, StringArray } from './common';

const Progress = z.number().int().min(0).max(100);

export const Aoi = z.looseObject({
  aoi_id: Id,
  name: z.string().nullish(),
  description: z.string().nullish(),
  satellite_id: z.string().nullish(),
  project_id: z.string().nullish(),
  /** "images associated with the AOI": an object whose structure is not shown. */
  images: z.record(z.string(), z.unknown()).nullish(),
  eo_bands: StringArray.nullish(),
  geometry: Geometry.nullish(),
  progress: Progress.nullish(),
  status: AoiStatus,
  is_favourite: z.boolean().nullish(),
  created_at: MicroTimestamp.nullish(),
  updated_at: MicroTimestamp.nullish(),
  user_id: z.string().nullish(),
  area_in_sq_m: z.number().nullish(),
  centroid: Centroid.nullish(),
});
export type Aoi = z.infer<typeof Aoi>;

export const Asset = z.looseObject({
  id: Id,
  aoi_id: z.string().nullish(),
  visualization_id: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  asset_type: z.string().nullish(),
  band_list: StringArray.nullish(),
  centroid: Centroid.nullish(),
  area_in_sq_m: z.number().nullish(),
  date: AssetDate.nullish(),
  geometry: Geometry.nullish(),
  path: z.string().nullish(),
  progress: z.number().int().nullish(),
  status: z.string().nullish(),
  created_at: MicroTimestamp.nullish(),
  updated_at: MicroTimestamp.nullish(),
});
export type Asset = z.infer<typeof Asset>;

export const Visualization = z.looseObject({
  id: Id,
  aoi_id: z.string(),
  index_id: z.string().nullish(),
  index_name: z.string().nullish(),
  expression: z.string().nullish(),
  expression_type: ExpressionType.nullish(),
  type: VisualizationType.nullish(),
  rescale: IntArray.nullish(),
  progress: z.number().int().nullish(),
  status: VisualizationStatus,
  assets: z.array(Asset).nullish(),
  tenant_id: z.string().nullish(),
  user_id: z.string().nullish(),
  created_at: MicroTimestamp.nullish(),
  updated_at: MicroTimestamp.nullish(),
});
export type Visualization = z.infer<typeof Visualization>;

export const SpectralIndex = z.looseObject({
  id: Id,
  name: z.string(),
  description: z.string().nullish(),
  expression: z.string(),
  expression_type: ExpressionType,
  type: IndexType,
  rescale: IntArray.nullish(),
  colormap: z.string().nullish(),
  satellite_id: z.string().nullish(),
  bands: StringArray.nullish(),
  org_id: z.string().nullish(),
  user_id: z.string().nullish(),
  created_at: MicroTimestamp.nullish(),
  updated_at: MicroTimestamp.nullish(),
});
export type SpectralIndex = z.infer<typeof SpectralIndex>;

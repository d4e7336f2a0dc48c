/** Stored rows -> wire shapes of spec 2.6 (AOI) and 2.7 (asset). */
import type { Aoi, Asset, Geometry } from '@eo/domain';
import type { z } from 'zod';
import { toMicro } from '../time';
import type { AoiRow, AssetRow } from './repository';

export type AoiOut = z.input<typeof Aoi>;
export type AssetOut = z.input<typeof Asset>;

/**
 * `images` (an object whose structure the spec does not show) is ours:
 * `{ item_ids: [archive item ids, in request order], count }`. `provider` (a create field the
 * AOI resource does not list) is echoed back.
 */
export function aoiToWire(r: AoiRow): AoiOut {
  const itemIds = JSON.parse(r.item_ids_json) as string[];
  return {
    aoi_id: r.id,
    name: r.name,
    description: r.description,
    satellite_id: r.satellite_id,
    project_id: r.project_id,
    provider: r.provider,
    images: { item_ids: itemIds, count: itemIds.length },
    eo_bands: JSON.parse(r.eo_bands_json) as string[],
    geometry: JSON.parse(r.geometry_json) as Geometry,
    progress: r.progress,
    status: r.status as AoiOut['status'],
    is_favourite: r.is_favourite === 1,
    created_at: toMicro(r.created_at),
    updated_at: toMicro(r.updated_at),
    user_id: r.user_id,
    area_in_sq_m: r.area_sq_m,
    centroid: [r.centroid_lon, r.centroid_lat],
  };
}

export function assetToWire(r: AssetRow): AssetOut {
  return {
    id: r.id,
    aoi_id: r.aoi_id,
    visualization_id: r.visualization_id,
    name: r.name,
    description: r.description,
    asset_type: r.asset_type,
    band_list: JSON.parse(r.band_list_json) as string[],
    centroid:
      r.centroid_lon === null || r.centroid_lat === null ? null : [r.centroid_lon, r.centroid_lat],
    area_in_sq_m: r.area_sq_m,
    date: r.date,
    geometry: r.geometry_json === null ? null : (JSON.parse(r.geometry_json) as Geometry),
    path: r.path,
    progress: r.progress,
    status: r.status,
    created_at: toMicro(r.created_at),
    updated_at: toMicro(r.updated_at),
  };
}

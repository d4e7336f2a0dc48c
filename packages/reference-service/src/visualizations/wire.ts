/** Stored rows -> wire shape of spec 2.8 (visualization). */
import type { Visualization } from '@eo/domain';
import type { z } from 'zod';
import type { AssetRow } from '../aois/repository';
import { assetToWire } from '../aois/wire';
import { toMicro } from '../time';
import type { VisualizationRow } from './repository';

export type VisualizationOut = z.input<typeof Visualization>;

/** `tenant_id` is the organisation; `src_asset_ids` (not in 2.8) echoes the request. */
export function visualizationToWire(v: VisualizationRow, assets: AssetRow[]): VisualizationOut {
  return {
    id: v.id,
    aoi_id: v.aoi_id,
    index_id: v.index_id,
    index_name: v.index_name,
    expression: v.expression,
    expression_type: v.expression_type as VisualizationOut['expression_type'],
    type: v.type as VisualizationOut['type'],
    rescale: JSON.parse(v.rescale_json) as number[],
    progress: v.progress,
    status: v.status as VisualizationOut['status'],
    assets: assets.map(assetToWire),
    src_asset_ids: JSON.parse(v.src_asset_ids_json) as string[],
    tenant_id: v.org_id,
    user_id: v.user_id,
    created_at: toMicro(v.created_at),
    updated_at: toMicro(v.updated_at),
  };
}

/**
 * The archive scene an AOI asset was cut from, for its thumbnail: our spec's `scene` assets and
 * the provider's `stac_item` assets carry the scene's STAC id as their `name` (the reference
 * service names them so, packages/reference-service/src/aois/routes.ts). Mosaics and index outputs have none.
 */
import type { Asset } from '@eo/domain';

const SCENE_ASSET_TYPES = new Set(['scene', 'stac_item']);

export function assetSceneId(asset: Pick<Asset, 'asset_type' | 'name'>): string | null {
  if (!asset.asset_type || !SCENE_ASSET_TYPES.has(asset.asset_type)) return null;
  const name = asset.name?.trim();
  return name ? name : null;
}

/**
 * Where produced assets live. The reference service simulates processing: it records the
 * path an asset would be written to, under one storage prefix, and writes no raster bytes.
 */
export const ASSET_STORAGE_PREFIX = 'eo-store://assets';

export function sceneAssetPath(orgId: string, aoiId: string, assetId: string): string {
  return `${ASSET_STORAGE_PREFIX}/${orgId}/aois/${aoiId}/scenes/${assetId}.tif`;
}

export function indexAssetPath(
  orgId: string,
  aoiId: string,
  visualizationId: string,
  assetId: string,
): string {
  return `${ASSET_STORAGE_PREFIX}/${orgId}/aois/${aoiId}/visualizations/${visualizationId}/${assetId}.tif`;
}

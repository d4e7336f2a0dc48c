/**
 * A scene's COG as `@eo/geotiff` writes it, in the stored raster format (that package's
 * README): the scene's grid and CRS, its bands as uint16 reflectance, 512 px tiles, DEFLATE
 * (level 1: the render's budget goes to pixels, `docs/choices-imagery.md`) with predictor 2.
 */
import { createHash } from 'node:crypto';
import {
  REFLECTANCE,
  SCENE_TILE_SIZE,
  reflectanceBands,
  sceneItems,
  type CogSpec,
} from '@eo/geotiff';
import type { SceneRaster } from './scene';

/** Bump when the bytes of the same scene change (part of every file name and ETag). */
export const SCENE_COG_VERSION = 1;

export function sceneCogSpec(scene: SceneRaster): CogSpec {
  const gt = scene.geoTransform;
  return {
    width: scene.width,
    height: scene.height,
    bands: scene.bands.length,
    sampleType: REFLECTANCE.sampleType,
    tileSize: SCENE_TILE_SIZE,
    geoTransform: gt,
    epsg: scene.epsg,
    nodata: REFLECTANCE.nodata,
    metadata: sceneItems({
      sceneId: scene.look.id,
      datetime: scene.datetime,
      collection: scene.collection,
      satellite: scene.platform,
      ...(scene.bandset ? { bandset: scene.bandset } : {}),
      cloudCover: scene.look.cloudCover,
      level: 0,
      resolutionM: Math.hypot(gt[1], gt[4]),
    }),
    bandMetadata: reflectanceBands(scene.bands),
    deflateLevel: 1,
    predictor: 2,
  };
}

/**
 * The name of a scene's COG: a hash of everything its bytes depend on (the renderer, zlib's
 * version, which shapes DEFLATE's output, and the scene), so it is also a strong ETag.
 */
export function sceneCogKey(scene: SceneRaster): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: SCENE_COG_VERSION, zlib: process.versions.zlib, scene }))
    .digest('hex')
    .slice(0, 40);
}

/**
 * The render job a thread runs: a batch of a scene COG's tiles, rendered and encoded (the
 * bytes the file stores), or null for a tile wholly outside the footprint (stored sparse).
 * Pure and structured-cloneable both ways.
 */
import { threadId } from 'node:worker_threads';
import { encodeTile, planCog } from '@eo/geotiff';
import { nodeCompression } from '@eo/geotiff/node';
import { renderSceneTile, sceneLight, type SceneLight } from './render';
import type { SceneRaster } from './scene';
import { sceneCogSpec } from './spec';

export interface SceneTilesJob {
  readonly scene: SceneRaster;
  /** [level, x, y] of each tile, in file order. */
  readonly tiles: readonly (readonly [number, number, number])[];
}

export interface SceneTilesResult {
  /** Encoded bytes per tile (null: sparse). */
  readonly tiles: (Uint8Array | null)[];
  /** The thread that rendered them (0: the main thread). */
  readonly threadId: number;
}

/** Per-scene constants, kept for the scene rendered last (batches of one scene follow each other). */
let lastLight: { id: string; light: SceneLight } | null = null;

export function renderSceneTiles(job: SceneTilesJob): SceneTilesResult {
  const { scene } = job;
  const id = JSON.stringify(scene.look);
  if (lastLight?.id !== id) lastLight = { id, light: sceneLight(scene) };
  const light = lastLight.light;
  const layout = planCog(sceneCogSpec(scene));
  const tiles = job.tiles.map(([level, x, y]) => {
    const tile = renderSceneTile(scene, light, level, x, y, layout.tileSize);
    return tile.inside === 0 ? null : encodeTile(layout, tile.samples, nodeCompression);
  });
  return { tiles, threadId };
}

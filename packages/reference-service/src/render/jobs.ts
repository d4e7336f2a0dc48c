/**
 * What the render pool's threads can do: one function per job kind, from a structured-cloneable
 * input to a structured-cloneable output (bytes as `Uint8Array`, handed over without a copy).
 * A thread imports this table and nothing else; the service's main thread only names a kind.
 * Add heavy work (a picture, a raster) here and call it with `pool.run(owner, kind, input)`.
 */
import { QUICKLOOK_PIXELS, type QuicklookVariant } from '@eo/domain';
import { renderIndexMap, type IndexMapRequest } from '../imagery/index-png';
import { encodePng } from '../imagery/png';
import { renderQuicklook, type QuicklookScene } from '../imagery/quicklook';
import { renderSceneTiles, type SceneTilesJob, type SceneTilesResult } from '../imagery/cog/job';

export const renderJobs = {
  /** A scene's quicklook as PNG bytes. */
  quicklook(input: { scene: QuicklookScene; variant: QuicklookVariant }): Uint8Array {
    return encodePng(renderQuicklook(input.scene, QUICKLOOK_PIXELS[input.variant]));
  },

  /** A visualization's index map as PNG bytes, with where it lies and what its colours mean. */
  indexMap(input: IndexMapRequest): {
    png: Uint8Array;
    bounds: readonly [number, number, number, number];
    rescale: readonly [number, number];
    colormap: string;
  } {
    const map = renderIndexMap(input);
    return {
      png: encodePng(map.image),
      bounds: map.bounds,
      rescale: map.rescale,
      colormap: map.colormap,
    };
  },

  /** A batch of a scene COG's tiles, encoded as the file stores them (null: sparse). */
  sceneTiles(input: SceneTilesJob): SceneTilesResult {
    return renderSceneTiles(input);
  },
} satisfies JobTable;

/** A table of jobs a thread serves: kind → function of one input. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each job has its own input type
export type JobTable = Readonly<Record<string, (input: any) => unknown>>;
export type RenderJobs = typeof renderJobs;

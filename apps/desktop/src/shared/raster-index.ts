/**
 * An index over an offline raster's tiles, offline (the renderer's raster worker draws and
 * inspects it; the backend writes it as a GeoTIFF: one computation for both): the index
 * editor's own expression
 * (`@eo/domain`'s parser), compiled once into `@eo/domain`'s vectorised kernel, fed each
 * expression band from the raster band it reads (`mapExpressionBands`) in the service's units:
 * reflectance (the stored value x the band's scale + offset) x `INDEX_BAND_FACTOR`, nodata as
 * undefined. So the value equals the service's index for the same pixels.
 */
import {
  compileExpression,
  INDEX_BAND_FACTOR,
  type BandLoader,
  type ExpressionKernel,
} from '@eo/domain';

/** One band's samples (a typed array of any sample type of the stored format). */
export type Plane = ArrayLike<number>;

/** An index's values over a tile: one array per component (1, or 3 for an RGB index). */
export interface IndexTile {
  readonly components: readonly Float32Array[];
}

/** A band's stored values -> reflectance: value x scale + offset (the stored format: 0.0001, 0). */
export interface BandScale {
  readonly scale: number;
  readonly offset: number;
}

/**
 * Fills `into` with `plane[start..start+n)` in index units; NaN where the value is nodata. The
 * nodata check is a second pass only over chunks that have one: a branch per value in the first
 * loop made it several times slower in V8.
 */
export function loadIndexUnits(
  plane: Plane,
  start: number,
  n: number,
  into: Float32Array,
  factor: number,
  offset: number,
  nodata: number | null,
): void {
  let hit = false;
  for (let i = 0, j = start; i < n; i++, j++) {
    const v = plane[j]!;
    into[i] = v * factor + offset;
    if (v === nodata) hit = true;
  }
  if (hit) for (let i = 0, j = start; i < n; i++, j++) if (plane[j] === nodata) into[i] = NaN;
}

/** The loader of a tile's planes for a kernel: expression band k reads raster band bandMap[k]. */
export function tileLoader(
  planes: readonly Plane[],
  bandMap: readonly number[],
  scales: readonly BandScale[],
  nodata: number | null,
): BandLoader {
  const factors = bandMap.map((b) => scales[b]!.scale * INDEX_BAND_FACTOR);
  const offsets = bandMap.map((b) => scales[b]!.offset * INDEX_BAND_FACTOR);
  const picked = bandMap.map((b) => planes[b]!);
  return (k, start, n, into) =>
    loadIndexUnits(picked[k]!, start, n, into, factors[k]!, offsets[k]!, nodata);
}

/** The index's components over one decoded tile of `pixels` pixels. */
export function indexOfTile(
  kernel: ExpressionKernel,
  planes: readonly Plane[],
  pixels: number,
  bandMap: readonly number[],
  scales: readonly BandScale[],
  nodata: number | null,
): IndexTile & { readonly bytes: number } {
  const components = Array.from({ length: kernel.components }, () => new Float32Array(pixels));
  kernel.evaluate(pixels, tileLoader(planes, bandMap, scales, nodata), components);
  return { components, bytes: pixels * 4 * components.length };
}

/** The index's value at one pixel from its raw band values (the inspector): as the tiles compute it. */
export function indexOfPixel(
  kernel: ExpressionKernel,
  raw: readonly number[],
  bandMap: readonly number[],
  scales: readonly BandScale[],
  nodata: number | null,
): number[] {
  const planes = raw.map((v) => Float64Array.of(v));
  return indexOfTile(kernel, planes, 1, bandMap, scales, nodata).components.map((c) => c[0]!);
}

/** Kernels compiled once per expression text. */
const kernels = new Map<string, ExpressionKernel>();
export function kernelOf(expression: string): ExpressionKernel {
  let k = kernels.get(expression);
  if (!k) {
    k = compileExpression(expression);
    if (kernels.size > 32) kernels.clear();
    kernels.set(expression, k);
  }
  return k;
}

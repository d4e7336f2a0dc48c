/**
 * The index map of a visualization: its expression evaluated per pixel over the synthetic
 * bands of the AOI's ground (the same ground as the quicklooks, `land.ts`) on the scene's
 * date, coloured with the index's colormap and rescale, transparent outside the AOI. Band
 * values are reflectance x 1000 (so `rescale: [0, 255]` composites look natural; normalised
 * differences do not depend on the scale). Cloud-free, like a cloud-masked mosaic.
 */
import {
  colormapRgb,
  geometryBbox,
  geometryPrimitives,
  INDEX_BAND_FACTOR,
  parseExpression,
  primitivesContainPoint,
  type ExprNode,
  type Geometry,
  type VisualizationMode,
} from '@eo/domain';
import { groundRaster, pictureSize } from './ground-raster';
import { BAND_COUNT, bandOf } from './land';
import type { RasterImage } from './png';

/** Long side of an index map, pixels. */
export const INDEX_PNG_PIXELS = 512;

export interface IndexMapRequest {
  readonly geometry: Geometry;
  readonly datetimeMs: number;
  readonly expression: string;
  readonly expressionType: string;
  readonly colormap: string;
  /** The index's rescale ([min, max]; one value means [0, value]). */
  readonly rescale: readonly number[];
  readonly mode: VisualizationMode;
  /** Band name → common name (`red`, `nir`...) of the AOI's satellite. */
  readonly bandCommonNames: ReadonlyMap<string, string>;
}

export interface IndexMap {
  readonly image: RasterImage;
  /** west, south, east, north. */
  readonly bounds: readonly [number, number, number, number];
  readonly rescale: readonly [number, number];
  readonly colormap: string;
}

/** Band values of one pixel: reflectance x 1000 (`INDEX_BAND_FACTOR`, the desktop's too) by band name. */
type PixelBands = Map<string, number>;

function evaluate(node: ExprNode, bands: PixelBands): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'band':
      return bands.get(node.name) ?? NaN;
    case 'neg':
      return -evaluate(node.operand, bands);
    case 'binary': {
      const l = evaluate(node.left, bands);
      const r = evaluate(node.right, bands);
      if (node.op === '+') return l + r;
      if (node.op === '-') return l - r;
      if (node.op === '*') return l * r;
      return r === 0 ? NaN : l / r;
    }
  }
}

const unit = (v: number, lo: number, hi: number) => Math.min(1, Math.max(0, (v - lo) / (hi - lo)));

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
}

export function renderIndexMap(req: IndexMapRequest): IndexMap {
  const b = geometryBbox(req.geometry)!;
  const bounds = [b[0], b[1], b[2], b[3]] as const;
  const corners: [number, number][] = [
    [b[0], b[3]],
    [b[2], b[3]],
    [b[2], b[1]],
    [b[0], b[1]],
  ];
  const { width, height } = pictureSize(corners, INDEX_PNG_PIXELS);
  const ground = groundRaster(corners, width, height, req.datetimeMs);
  const components = parseExpression(req.expression).components;
  const prims = geometryPrimitives(req.geometry);
  const n = width * height;
  const k = components.length;
  const values = new Float64Array(n * k).fill(NaN);
  const names = parseExpression(req.expression).bands;
  const commons = names.map((b) => req.bandCommonNames.get(b) ?? b.toLowerCase());
  const bands: PixelBands = new Map();
  for (let y = 0; y < height; y++) {
    const lat = b[3] + ((b[1] - b[3]) * (y + 0.5)) / height;
    for (let x = 0; x < width; x++) {
      const lon = b[0] + ((b[2] - b[0]) * (x + 0.5)) / width;
      if (!primitivesContainPoint(prims, lon, lat)) continue;
      const i = y * width + x;
      const o = i * BAND_COUNT;
      for (let j = 0; j < names.length; j++)
        bands.set(names[j]!, bandOf(commons[j]!, ground.spectra, o) * INDEX_BAND_FACTOR);
      for (let c = 0; c < k; c++) values[i * k + c] = evaluate(components[c]!, bands);
    }
  }

  let lo: number;
  let hi: number;
  if (req.mode === 'dynamic') {
    const finite = Float64Array.from(values.filter(Number.isFinite)).sort();
    lo = percentile(finite, 0.02);
    hi = percentile(finite, 0.98);
  } else if (req.rescale.length >= 2) [lo, hi] = [req.rescale[0]!, req.rescale[1]!];
  else [lo, hi] = [0, req.rescale[0] ?? 1];
  if (!(hi > lo)) hi = lo + 1;

  const rgb = k === 3 || req.expressionType === 'composite';
  const colormap = rgb ? 'rgb' : req.expressionType === 'grayscale' ? 'gray' : req.colormap;
  const pixels = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const v = values[i * k]!;
    if (!Number.isFinite(v)) continue; // outside the AOI, or undefined (0/0): transparent
    if (rgb) {
      for (let c = 0; c < 3; c++)
        pixels[i * 4 + c] = Math.round(255 * unit(values[i * k + Math.min(c, k - 1)]!, lo, hi));
    } else pixels.set(colormapRgb(colormap, unit(v, lo, hi)), i * 4);
    pixels[i * 4 + 3] = 255;
  }
  return {
    image: { width, height, channels: 4, pixels },
    bounds,
    rescale: [lo, hi],
    colormap,
  };
}

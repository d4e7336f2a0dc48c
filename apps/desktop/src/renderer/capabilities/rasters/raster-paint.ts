/**
 * Painting a map tile from a raster level: each screen pixel takes the raster pixel that
 * contains its position (`raster-grid.ts` gives the positions), and becomes the bands' stretched
 * values as red, green and blue, or the index value through its ramp. Nodata, and positions off
 * the raster or in a sparse tile, stay transparent. One pass over the tile's pixels, with the
 * raster tile looked up only when the position moves to another one.
 */
import type { Samples } from '@eo/geotiff';
import type { IndexTile } from '../../../shared/raster-index';

/** A raster level as the painter reads it: its size, tile size and its tiles (decoded or absent). */
export interface PaintLevel<T> {
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
  /** A decoded tile (its bands, or an index's components), or null: nothing there. */
  tile(tx: number, ty: number): T | null;
}

/** Red, green, blue: each a band of a tile and its stretch (a lookup table over raw values). */
export interface BandsPaint {
  readonly bands: readonly [number, number, number];
  readonly luts: readonly [Uint8Array, Uint8Array, Uint8Array];
  /** [low, high] raw values, for samples a lookup table cannot index (floats, 32-bit). */
  readonly stretch: readonly (readonly [number, number])[];
  readonly nodata: number | null;
}

function channel(v: number, lut: Uint8Array, lo: number, hi: number): number {
  if (Number.isInteger(v) && v >= 0 && v < lut.length) return lut[v]!;
  const t = (v - lo) / (hi > lo ? hi - lo : 1);
  return Math.max(0, Math.min(255, Math.round(t * 255)));
}

/** Paints `n` screen pixels at (cols[i], rows[i]) of `level` into RGBA `out`. */
export function paintBands(
  cols: Float64Array,
  rows: Float64Array,
  n: number,
  level: PaintLevel<{ readonly bands: readonly Samples[] }>,
  style: BandsPaint,
  out: Uint8ClampedArray,
): void {
  const { width, height, tileWidth: tw, tileHeight: th } = level;
  const [br, bg, bb] = style.bands;
  const [lr, lg, lb] = style.luts;
  const nd = style.nodata;
  let lastTx = -1;
  let lastTy = -1;
  let r: Samples | null = null;
  let g: Samples | null = null;
  let b: Samples | null = null;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const c = Math.floor(cols[i]!);
    const w = Math.floor(rows[i]!);
    if (c < 0 || w < 0 || c >= width || w >= height) {
      out[o + 3] = 0;
      continue;
    }
    const tx = (c / tw) | 0;
    const ty = (w / th) | 0;
    if (tx !== lastTx || ty !== lastTy) {
      lastTx = tx;
      lastTy = ty;
      const t = level.tile(tx, ty);
      r = t ? t.bands[br]! : null;
      g = t ? t.bands[bg]! : null;
      b = t ? t.bands[bb]! : null;
    }
    if (r === null) {
      out[o + 3] = 0;
      continue;
    }
    const j = (w - ty * th) * tw + (c - tx * tw);
    const vr = r[j]!;
    const vg = g![j]!;
    const vb = b![j]!;
    if (vr === nd || vg === nd || vb === nd) {
      out[o + 3] = 0;
      continue;
    }
    out[o] = channel(vr, lr, style.stretch[0]![0], style.stretch[0]![1]);
    out[o + 1] = channel(vg, lg, style.stretch[1]![0], style.stretch[1]![1]);
    out[o + 2] = channel(vb, lb, style.stretch[2]![0], style.stretch[2]![1]);
    out[o + 3] = 255;
  }
}

export type { IndexTile };

export interface IndexPaint {
  /** 256 RGB steps of the colour ramp (one component), or null: the three components as RGB. */
  readonly ramp: Uint8Array | null;
  readonly range: readonly [number, number];
}

/** Paints an index's values: through its ramp, or its three components as red, green, blue. */
export function paintIndex(
  cols: Float64Array,
  rows: Float64Array,
  n: number,
  level: PaintLevel<IndexTile>,
  style: IndexPaint,
  out: Uint8ClampedArray,
): void {
  const { width, height, tileWidth: tw, tileHeight: th } = level;
  const [lo, hi] = style.range;
  const k = 1 / (hi > lo ? hi - lo : 1);
  const ramp = style.ramp;
  let lastTx = -1;
  let lastTy = -1;
  let comps: readonly Float32Array[] | null = null;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const c = Math.floor(cols[i]!);
    const w = Math.floor(rows[i]!);
    if (c < 0 || w < 0 || c >= width || w >= height) {
      out[o + 3] = 0;
      continue;
    }
    const tx = (c / tw) | 0;
    const ty = (w / th) | 0;
    if (tx !== lastTx || ty !== lastTy) {
      lastTx = tx;
      lastTy = ty;
      comps = level.tile(tx, ty)?.components ?? null;
    }
    if (comps === null) {
      out[o + 3] = 0;
      continue;
    }
    const j = (w - ty * th) * tw + (c - tx * tw);
    const v = comps[0]![j]!;
    if (Number.isNaN(v)) {
      out[o + 3] = 0;
      continue;
    }
    if (ramp) {
      const t = Math.max(0, Math.min(255, Math.floor((v - lo) * k * 256)));
      out[o] = ramp[t * 3]!;
      out[o + 1] = ramp[t * 3 + 1]!;
      out[o + 2] = ramp[t * 3 + 2]!;
    } else {
      for (let ch = 0; ch < 3; ch++) {
        const x = comps[Math.min(ch, comps.length - 1)]![j]!;
        out[o + ch] = Math.max(0, Math.min(255, Math.round((x - lo) * k * 255)));
      }
    }
    out[o + 3] = 255;
  }
}

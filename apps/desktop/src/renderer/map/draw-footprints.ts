/**
 * Traces footprints into canvas paths, a batch of subpaths per path: the layer fills and
 * strokes once per batch instead of once per footprint; paints specks (footprints a few pixels
 * across) as pixel boxes instead. Batches, not one path for everything:
 * measured in Chromium (software raster), one path of 10,000 overlapping rings fills and
 * strokes about 10x slower than 10,000 separate paths, while batches of about 32 rings are
 * the fastest of all.
 */
import { ringPoints, type PackedFootprints } from './footprints';

/** The part of CanvasRenderingContext2D (or Path2D) tracing needs. */
export interface PathTarget {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
  rect(x: number, y: number, w: number, h: number): void;
}

/** Canvas pixel = world unit * scale - origin; the canvas is width x height pixels. */
export interface ViewTransform {
  readonly scale: number;
  readonly originX: number;
  readonly originY: number;
  readonly width: number;
  readonly height: number;
}

/** Below this distance (pixels, |dx| + |dy|) a vertex adds nothing visible and is skipped. */
const MIN_STEP = 0.75;
/** A footprint smaller than this on screen is traced as a two-pixel square. */
const DOT = 1.5;

/**
 * A footprint narrower and lower than this (pixels) is a speck: its 1-pixel outline covers it
 * whole, so it is painted as its pixel box straight into the canvas's pixels (`paintSpecks`),
 * not traced. 100,000 footprints at world zoom were 100,000 tiny paths for the rasterizer.
 */
export const SPECK = 3;

/** Rings per path before the layer paints and starts a new path (see above). */
export const BATCH_SIZE = 32;

/** Called after every `size` traced subpaths, to paint them and begin a new path. */
export interface Batching {
  readonly size: number;
  flush(): void;
}

/**
 * Trace footprints that are on screen (in any world copy) and pass `include`.
 * Returns how many were traced.
 */
export function traceFootprints(
  target: PathTarget,
  fp: PackedFootprints,
  view: ViewTransform,
  include?: (i: number) => boolean,
  only?: Iterable<number>,
  batch?: Batching,
): number {
  let traced = 0;
  let inBatch = 0;
  const done = (): void => {
    if (batch && ++inBatch >= batch.size) {
      batch.flush();
      inBatch = 0;
    }
  };
  const { scale, width, height } = view;
  const b = fp.boxes;
  const each = (i: number): void => {
    if (include && !include(i)) return;
    const bx0 = b[i * 4] as number;
    if (Number.isNaN(bx0)) return;
    const by0 = (b[i * 4 + 1] as number) * scale - view.originY;
    const by1 = (b[i * 4 + 3] as number) * scale - view.originY;
    if (by1 < 0 || by0 > height) return;
    const bx1 = b[i * 4 + 2] as number;
    // World copies: footprints repeat every `scale` pixels horizontally.
    for (let w = -1; w <= 1; w++) {
      const shift = w * scale - view.originX;
      const x0 = bx0 * scale + shift;
      const x1 = bx1 * scale + shift;
      if (x1 < 0 || x0 > width) continue;
      traced++;
      if (x1 - x0 < DOT && by1 - by0 < DOT) {
        target.rect(Math.floor((x0 + x1) / 2) - 1, Math.floor((by0 + by1) / 2) - 1, 2, 2);
        done();
        continue;
      }
      const from = fp.offsets[i] as number;
      const to = fp.offsets[i + 1] as number;
      const pts = ringPoints(fp, i);
      let lx = (pts[from * 2] as number) * scale + shift;
      let ly = (pts[from * 2 + 1] as number) * scale - view.originY;
      target.moveTo(lx, ly);
      for (let k = from + 1; k < to; k++) {
        const x = (pts[k * 2] as number) * scale + shift;
        const y = (pts[k * 2 + 1] as number) * scale - view.originY;
        if (Math.abs(x - lx) + Math.abs(y - ly) < MIN_STEP) continue;
        target.lineTo(x, y);
        lx = x;
        ly = y;
      }
      target.closePath();
      done();
    }
  };
  if (only) {
    for (const i of only) if (i >= 0 && i < fp.count) each(i);
  } else {
    for (let i = 0; i < fp.count; i++) each(i);
  }
  return traced;
}

/** Is footprint i a speck at this scale (see SPECK)? False without geometry. */
export function isSpeck(fp: PackedFootprints, i: number, scale: number): boolean {
  const b = fp.boxes;
  return (
    ((b[i * 4 + 2] as number) - (b[i * 4] as number)) * scale < SPECK &&
    ((b[i * 4 + 3] as number) - (b[i * 4 + 1] as number)) * scale < SPECK
  );
}

/** The part of CanvasRenderingContext2D painting specks needs. */
export interface PixelTarget {
  createImageData(width: number, height: number): ImageData;
  putImageData(image: ImageData, x: number, y: number): void;
}

/** Straight RGBA (0 to 255 each), as ImageData holds pixels. */
export type Rgba = readonly [number, number, number, number];

/**
 * Paint the specks on screen that pass `include` as solid pixel boxes (at least 2 x 2 device
 * pixels) of `color`, straight into the canvas's pixels: one `putImageData`, which replaces
 * what is there, so it comes first, on the cleared canvas. `dpr` device pixels per canvas
 * pixel. Returns how many were painted (world copies counted, as `traceFootprints` does).
 */
export function paintSpecks(
  ctx: PixelTarget,
  fp: PackedFootprints,
  view: ViewTransform,
  dpr: number,
  color: Rgba,
  include?: (i: number) => boolean,
): number {
  const { scale, width, height } = view;
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  const b = fp.boxes;
  let image: ImageData | null = null;
  let pixels: Uint32Array | null = null;
  // One pixel's bytes in memory order (R, G, B, A) read as the platform's u32.
  const value = new Uint32Array(new Uint8ClampedArray(color).buffer)[0] as number;
  let painted = 0;
  for (let i = 0; i < fp.count; i++) {
    const bx0 = b[i * 4] as number;
    if (Number.isNaN(bx0) || !isSpeck(fp, i, scale) || (include && !include(i))) continue;
    const y0 = ((b[i * 4 + 1] as number) * scale - view.originY) * dpr;
    const y1 = ((b[i * 4 + 3] as number) * scale - view.originY) * dpr;
    if (y1 < 0 || y0 > h) continue;
    const bx1 = b[i * 4 + 2] as number;
    for (let copy = -1; copy <= 1; copy++) {
      const shift = copy * scale - view.originX;
      const x0 = (bx0 * scale + shift) * dpr;
      const x1 = (bx1 * scale + shift) * dpr;
      if (x1 < 0 || x0 > w) continue;
      if (!pixels) {
        image = ctx.createImageData(w, h);
        pixels = new Uint32Array(image.data.buffer);
      }
      painted++;
      const px0 = Math.max(0, Math.floor(x0));
      const py0 = Math.max(0, Math.floor(y0));
      const px1 = Math.min(w, Math.max(Math.floor(x0) + 2, Math.ceil(x1)));
      const py1 = Math.min(h, Math.max(Math.floor(y0) + 2, Math.ceil(y1)));
      for (let y = py0; y < py1; y++) pixels.fill(value, y * w + px0, y * w + px1);
    }
  }
  if (image) ctx.putImageData(image, 0, 0);
  return painted;
}

/** A palette's `rgba(r, g, b, a)` (or `#rrggbb`) as straight RGBA bytes. */
export function rgbaOf(css: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(css);
  if (hex) {
    const n = parseInt(hex[1]!, 16);
    return [n >> 16, (n >> 8) & 255, n & 255, 255];
  }
  const m = /^rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\s*\)$/.exec(css);
  if (!m) throw new Error(`not a colour the footprint layer reads: ${css}`);
  const a = m[4] === undefined ? 1 : Number(m[4]);
  return [Number(m[1]), Number(m[2]), Number(m[3]), Math.round(a * 255)];
}

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
 * whole, so it is painted as its whole-pixel box (`paintSpecks`), not traced: 100,000
 * footprints at world zoom were 100,000 tiny paths for the rasterizer.
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
  save(): void;
  restore(): void;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  beginPath(): void;
  rect(x: number, y: number, width: number, height: number): void;
  fill(): void;
  fillStyle: string | CanvasGradient | CanvasPattern;
}

/** Straight RGBA (0 to 255 each), as ImageData holds pixels. */
export type Rgba = readonly [number, number, number, number];

/**
 * Up to this many speck boxes are filled as one path; more are written as pixels. In headless
 * Chromium's software canvas (1280 x 800), a `putImageData` of the view costs ~28 ms whatever it
 * holds, one path of 150 boxes 1 ms, of 2,000 4 ms, of 100,000 217 ms.
 */
export const SPECKS_AS_PATH = 4_000;

/** The boxes of one paint (device pixels: x0, y0, x1, y1 each), reused from paint to paint. */
let speckBoxes = new Int32Array(4 * 1024);

/**
 * Paint the specks on screen that pass `include` as solid pixel boxes (at least 2 x 2 device
 * pixels) of `color`, on the cleared canvas, so they come first. A few are filled as one path of
 * whole-pixel boxes: its subpaths are filled once where they overlap, so the pixels are those
 * of the boxes written straight in (the same bytes in Chromium). Many are written as pixels, one
 * `putImageData` of the box around them all, which replaces what is there. `dpr` device pixels
 * per canvas pixel. Returns how many were painted (world copies counted, as `traceFootprints`
 * does).
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
  let painted = 0;
  let minX = w;
  let minY = h;
  let maxX = 0;
  let maxY = 0;
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
      const px0 = Math.max(0, Math.floor(x0));
      const py0 = Math.max(0, Math.floor(y0));
      const px1 = Math.min(w, Math.max(Math.floor(x0) + 2, Math.ceil(x1)));
      const py1 = Math.min(h, Math.max(Math.floor(y0) + 2, Math.ceil(y1)));
      if (px1 <= px0 || py1 <= py0) continue;
      if ((painted + 1) * 4 > speckBoxes.length) {
        const grown = new Int32Array(speckBoxes.length * 2);
        grown.set(speckBoxes);
        speckBoxes = grown;
      }
      const at = painted * 4;
      speckBoxes[at] = px0;
      speckBoxes[at + 1] = py0;
      speckBoxes[at + 2] = px1;
      speckBoxes[at + 3] = py1;
      painted++;
      minX = Math.min(minX, px0);
      minY = Math.min(minY, py0);
      maxX = Math.max(maxX, px1);
      maxY = Math.max(maxY, py1);
    }
  }
  if (painted === 0) return 0;
  const s = speckBoxes;
  if (painted <= SPECKS_AS_PATH) {
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = `rgba(${color[0]}, ${color[1]}, ${color[2]}, ${color[3] / 255})`;
    ctx.beginPath();
    for (let k = 0; k < painted * 4; k += 4) {
      const x0 = s[k] as number;
      const y0 = s[k + 1] as number;
      ctx.rect(x0, y0, (s[k + 2] as number) - x0, (s[k + 3] as number) - y0);
    }
    ctx.fill();
    ctx.restore();
    return painted;
  }
  const bw = maxX - minX;
  const image = ctx.createImageData(bw, maxY - minY);
  const pixels = new Uint32Array(image.data.buffer);
  // One pixel's bytes in memory order (R, G, B, A) read as the platform's u32.
  const value = new Uint32Array(new Uint8ClampedArray(color).buffer)[0] as number;
  for (let k = 0; k < painted * 4; k += 4) {
    const x0 = (s[k] as number) - minX;
    const x1 = (s[k + 2] as number) - minX;
    for (let y = (s[k + 1] as number) - minY; y < (s[k + 3] as number) - minY; y++) {
      // A speck's row is 2 or 3 pixels: set one by one. A `fill()` call per row cost more than
      // its pixels (the pixels of 100,000 specks, in a fresh process: 11 to 19 ms against 5 to 9).
      const row = y * bw;
      for (let x = row + x0; x < row + x1; x++) pixels[x] = value;
    }
  }
  ctx.putImageData(image, minX, minY);
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

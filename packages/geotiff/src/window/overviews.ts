/**
 * Overviews computed from a window: each level the mean of 2 x 2 pixels of the level above
 * (nodata pixels left out; all four nodata gives nodata), integers rounded. Level 1 is built
 * tile by tile from the full-resolution tiles (never the whole window decoded at once), the
 * next ones from the level before, in memory (a quarter of the size each time).
 */
import { allocSamples, isFloat, type SampleType, type Samples } from '../tiff/samples';

export interface LevelImage {
  readonly width: number;
  readonly height: number;
  readonly bands: number;
  /** Pixel-interleaved samples. */
  readonly data: Samples;
}

export function emptyLevel(
  width: number,
  height: number,
  bands: number,
  type: SampleType,
  nodata: number | null,
): LevelImage {
  const data = allocSamples(type, width * height * bands);
  if (nodata !== null && nodata !== 0) data.fill(nodata);
  return { width, height, bands, data };
}

/**
 * Adds the half-size pixels of a `tw` x `th` tile (pixel-interleaved) whose top-left pixel is
 * at (x0, y0) of a `srcW` x `srcH` level into `dst` (x0, y0 even).
 */
export function downsampleInto(
  tile: ArrayLike<number>,
  tw: number,
  x0: number,
  y0: number,
  srcW: number,
  srcH: number,
  dst: LevelImage,
  type: SampleType,
  nodata: number | null,
): void {
  const nb = dst.bands;
  const round = !isFloat(type);
  const w = Math.min(tw, srcW - x0);
  const h = Math.min(tile.length / (tw * nb), srcH - y0);
  for (let y = 0; y < h; y += 2)
    for (let x = 0; x < w; x += 2) {
      const di = (((y0 + y) >> 1) * dst.width + ((x0 + x) >> 1)) * nb;
      for (let b = 0; b < nb; b++) {
        let sum = 0;
        let n = 0;
        for (let dy = 0; dy < 2 && y + dy < h; dy++)
          for (let dx = 0; dx < 2 && x + dx < w; dx++) {
            const v = tile[((y + dy) * tw + x + dx) * nb + b]!;
            if (v === nodata || Number.isNaN(v)) continue;
            sum += v;
            n++;
          }
        dst.data[di + b] = n === 0 ? (nodata ?? 0) : round ? Math.round(sum / n) : sum / n;
      }
    }
}

/** The next level of an in-memory level. */
export function halve(src: LevelImage, type: SampleType, nodata: number | null): LevelImage {
  const dst = emptyLevel(
    Math.ceil(src.width / 2),
    Math.ceil(src.height / 2),
    src.bands,
    type,
    nodata,
  );
  downsampleInto(src.data, src.width, 0, 0, src.width, src.height, dst, type, nodata);
  return dst;
}

/** A tile of an in-memory level (padding: nodata, or 0), or null when it holds only nodata. */
export function tileOf(
  img: LevelImage,
  tx: number,
  ty: number,
  size: number,
  type: SampleType,
  nodata: number | null,
): Samples | null {
  const nb = img.bands;
  const out = allocSamples(type, size * size * nb);
  if (nodata !== null && nodata !== 0) out.fill(nodata);
  let any = false;
  const h = Math.min(size, img.height - ty * size);
  const w = Math.min(size, img.width - tx * size);
  for (let y = 0; y < h; y++) {
    const src = ((ty * size + y) * img.width + tx * size) * nb;
    const row = img.data.subarray(src, src + w * nb);
    out.set(row, y * size * nb);
    if (!any)
      for (let i = 0; i < row.length; i++)
        if (row[i] !== nodata) {
          any = true;
          break;
        }
  }
  return any || nodata === null ? out : null;
}

/**
 * Pixel reads the journeys run in the page (Playwright sends a function's source; this side has
 * no DOM types, so they are built from text).
 */

/**
 * Spread of an image's pixels in the page (same origin, so readable): the standard deviation
 * of the luma of a `<img>` or `<canvas>` drawn at 64 px, and the share of non-transparent
 * pixels. A blank, flat or transparent picture has ~0 spread.
 */
export interface PixelStats {
  readonly spread: number;
  readonly opaque: number;
}
export const PIXEL_STATS = new Function(
  'el',
  `
  const c = document.createElement('canvas');
  c.width = 64; c.height = 64;
  const ctx = c.getContext('2d');
  ctx.drawImage(el, 0, 0, 64, 64);
  const d = ctx.getImageData(0, 0, 64, 64).data;
  let n = 0, sum = 0, sq = 0, opaque = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 3] === 0) continue;
    opaque++;
    const y = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
    n++; sum += y; sq += y * y;
  }
  const mean = n ? sum / n : 0;
  return { spread: n ? Math.sqrt(sq / n - mean * mean) : 0, opaque: opaque / (64 * 64) };
`,
) as (el: unknown) => PixelStats;

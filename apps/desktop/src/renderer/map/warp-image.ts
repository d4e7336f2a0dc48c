/**
 * Draws a square picture onto any four screen points (its top-left, top-right, bottom-right and
 * bottom-left corners, as `quicklookCorners` gives them): two triangles, each an affine map of
 * half the picture, clipped to its triangle: a close piecewise-linear approximation for the
 * slightly skewed quadrilaterals of scene footprints. A parallelogram (within half a pixel) is
 * drawn with one affine map and no clip, which is exact for it.
 */

export type Point = readonly [number, number];

/** How far (screen pixels) the fourth corner may be from a parallelogram's to draw as one. */
export const PARALLEL_PX = 0.5;

/** The part of CanvasRenderingContext2D the warp uses. */
export type WarpTarget = Pick<
  CanvasRenderingContext2D,
  | 'save'
  | 'restore'
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'clip'
  | 'transform'
  | 'drawImage'
>;

/**
 * The affine transform `[a, b, c, d, e, f]` (canvas order) taking picture pixels to the
 * screen so that picture corner (0,0) lands on `origin`, (w,0) on `alongX` and (0,h) on
 * `alongY`, for a w x h picture.
 */
export function affineFrom(
  w: number,
  h: number,
  origin: Point,
  alongX: Point,
  alongY: Point,
): [number, number, number, number, number, number] {
  return [
    (alongX[0] - origin[0]) / w,
    (alongX[1] - origin[1]) / w,
    (alongY[0] - origin[0]) / h,
    (alongY[1] - origin[1]) / h,
    origin[0],
    origin[1],
  ];
}

/** A triangle pushed out by `by` pixels from its centre: hides the seam along the diagonal. */
function grow(tri: readonly Point[], by: number): Point[] {
  const cx = (tri[0]![0] + tri[1]![0] + tri[2]![0]) / 3;
  const cy = (tri[0]![1] + tri[1]![1] + tri[2]![1]) / 3;
  return tri.map(([x, y]) => {
    const dx = x - cx;
    const dy = y - cy;
    const len = Math.hypot(dx, dy) || 1;
    return [x + (dx / len) * by, y + (dy / len) * by] as const;
  });
}

function clipTo(ctx: WarpTarget, tri: readonly Point[]): void {
  ctx.beginPath();
  ctx.moveTo(tri[0]![0], tri[0]![1]);
  ctx.lineTo(tri[1]![0], tri[1]![1]);
  ctx.lineTo(tri[2]![0], tri[2]![1]);
  ctx.closePath();
  ctx.clip();
}

/**
 * Draws `image` (w x h pixels) with its corners on `tl`, `tr`, `br`, `bl`. The upper-left
 * triangle (tl, tr, bl) maps picture (0,0), (w,0), (0,h); the lower-right (br, bl, tr) maps
 * (w,h), (0,h), (w,0) (its affine runs from the opposite corner).
 */
export function drawWarped(
  ctx: WarpTarget,
  image: CanvasImageSource,
  w: number,
  h: number,
  [tl, tr, br, bl]: readonly [Point, Point, Point, Point],
): void {
  // A parallelogram to within a pixel (scenes along a ground track mostly are): one affine map
  // of the whole picture lands every corner, with no clip (clips are most of a draw's cost in
  // software raster: the 500-picture map benchmark).
  if (Math.hypot(tr[0] + bl[0] - tl[0] - br[0], tr[1] + bl[1] - tl[1] - br[1]) <= PARALLEL_PX) {
    ctx.save();
    ctx.transform(...affineFrom(w, h, tl, tr, bl));
    ctx.drawImage(image, 0, 0, w, h);
    ctx.restore();
    return;
  }
  // Lower-right half first, exactly clipped; the upper-left half overlaps it by half a pixel.
  ctx.save();
  clipTo(ctx, [br, bl, tr]);
  const [a, b, c, d] = affineFrom(w, h, br, bl, tr);
  // From br: -x goes towards bl, -y towards tr; shift so picture (0,0) maps right.
  ctx.transform(-a, -b, -c, -d, br[0] + a * w + c * h, br[1] + b * w + d * h);
  ctx.drawImage(image, 0, 0, w, h);
  ctx.restore();

  ctx.save();
  clipTo(ctx, grow([tl, tr, bl], 0.5));
  ctx.transform(...affineFrom(w, h, tl, tr, bl));
  ctx.drawImage(image, 0, 0, w, h);
  ctx.restore();
}

/**
 * Clustering at world zoom: footprints too small to see (a few pixels across, "dots") that
 * fall into one cell of a screen grid become one cluster with their count; a cell with one dot
 * leaves it a footprint. Computed per view from boxes in world units (mercator.ts), O(n).
 */

/** A footprint narrower and lower than this many pixels is a dot. */
export const DOT_PIXELS = 6;
/** The grid's cell, in pixels: about a cluster marker and its margin. */
export const CLUSTER_CELL = 56;

export interface ClusterView {
  readonly scale: number;
  readonly originX: number;
  readonly originY: number;
  readonly width: number;
  readonly height: number;
}

export interface Cluster {
  readonly count: number;
  /** Mean position of its footprints' centres, in screen pixels of the view. */
  readonly x: number;
  readonly y: number;
  /** Box of its footprints in world units: x0, y0, x1, y1. */
  readonly box: readonly [number, number, number, number];
}

/**
 * The clusters of a view. `boxes` holds x0, y0, x1, y1 per footprint in world units (NaN for a
 * footprint without geometry). Footprints outside the view are left out.
 */
export function clusterFootprints(
  boxes: Float64Array,
  view: ClusterView,
  cell = CLUSTER_CELL,
): Cluster[] {
  const { scale, originX, originY, width, height } = view;
  const cols = Math.ceil(width / cell);
  const acc = new Map<
    number,
    { n: number; sx: number; sy: number; x0: number; y0: number; x1: number; y1: number }
  >();
  const n = boxes.length / 4;
  for (let i = 0; i < n; i++) {
    const x0 = boxes[i * 4] as number;
    if (Number.isNaN(x0)) continue;
    const y0 = boxes[i * 4 + 1] as number;
    const x1 = boxes[i * 4 + 2] as number;
    const y1 = boxes[i * 4 + 3] as number;
    if ((x1 - x0) * scale >= DOT_PIXELS || (y1 - y0) * scale >= DOT_PIXELS) continue;
    // The world copy nearest the view (one world wide).
    let sx = ((x0 + x1) / 2) * scale - originX;
    if (sx < 0) sx += scale;
    else if (sx >= width) sx -= scale;
    const sy = ((y0 + y1) / 2) * scale - originY;
    if (sx < 0 || sx >= width || sy < 0 || sy >= height) continue;
    const key = Math.floor(sy / cell) * cols + Math.floor(sx / cell);
    const a = acc.get(key);
    if (a) {
      a.n++;
      a.sx += sx;
      a.sy += sy;
      a.x0 = Math.min(a.x0, x0);
      a.y0 = Math.min(a.y0, y0);
      a.x1 = Math.max(a.x1, x1);
      a.y1 = Math.max(a.y1, y1);
    } else {
      acc.set(key, { n: 1, sx, sy, x0, y0, x1, y1 });
    }
  }
  const out: Cluster[] = [];
  for (const a of acc.values()) {
    if (a.n < 2) continue;
    out.push({ count: a.n, x: a.sx / a.n, y: a.sy / a.n, box: [a.x0, a.y0, a.x1, a.y1] });
  }
  return out;
}

/**
 * A uniform grid over the footprints' boxes, for hit tests (which footprint is under the mouse)
 * and view culling. Built in two passes into flat arrays (CSR layout: cellStart + cellItems), so
 * building for 50,000 boxes allocates three typed arrays and no per-cell lists.
 *
 * Why a grid and not an R-tree: footprints of one mirror are similar in size, and a grid with
 * about `targetPerCell` boxes per cell answers a point query by reading one cell.
 */

export interface GridIndexOptions {
  /** Average number of boxes a cell should hold (default 4). */
  readonly targetPerCell?: number;
  /** Upper bound of cells per side (default 1024). */
  readonly maxCellsPerSide?: number;
}

export class GridIndex {
  readonly minX: number;
  readonly minY: number;
  readonly cols: number;
  readonly rows: number;
  private readonly cellW: number;
  private readonly cellH: number;
  private readonly cellStart: Uint32Array;
  private readonly cellItems: Uint32Array;
  /** Per-query stamps so an item spanning several cells is reported once. */
  private readonly seen: Uint32Array;
  private stamp = 0;

  /** boxes: minX, minY, maxX, maxY per item; NaN boxes (empty rings) are left out. */
  constructor(
    private readonly boxes: Float64Array,
    options: GridIndexOptions = {},
  ) {
    const count = Math.floor(boxes.length / 4);
    const [minX, minY, maxX, maxY] = boxesExtent(boxes) ?? [0, 0, 0, 0];
    const perCell = options.targetPerCell ?? 4;
    const maxSide = options.maxCellsPerSide ?? 1024;
    const w = Math.max(maxX - minX, 1e-12);
    const h = Math.max(maxY - minY, 1e-12);
    const cells = Math.max(1, count / perCell);
    // Square-ish cells in world units, whatever the extent's aspect ratio.
    let cols = Math.max(1, Math.min(maxSide, Math.round(Math.sqrt((cells * w) / h))));
    let rows = Math.max(1, Math.min(maxSide, Math.round(cells / cols)));
    if (!Number.isFinite(cols)) cols = 1;
    if (!Number.isFinite(rows)) rows = 1;
    this.minX = minX;
    this.minY = minY;
    this.cols = cols;
    this.rows = rows;
    this.cellW = w / cols;
    this.cellH = h / rows;

    const counts = new Uint32Array(cols * rows + 1);
    this.forEachCell(count, (cell) => {
      counts[cell + 1] = (counts[cell + 1] as number) + 1;
    });
    for (let c = 1; c < counts.length; c++) {
      counts[c] = (counts[c] as number) + (counts[c - 1] as number);
    }
    this.cellStart = counts;
    const items = new Uint32Array(counts[cols * rows] as number);
    const fill = counts.slice(0, cols * rows);
    this.forEachCell(count, (cell, item) => {
      const at = fill[cell] as number;
      items[at] = item;
      fill[cell] = at + 1;
    });
    this.cellItems = items;
    this.seen = new Uint32Array(count);
  }

  private col(x: number): number {
    return Math.max(0, Math.min(this.cols - 1, Math.floor((x - this.minX) / this.cellW)));
  }

  private row(y: number): number {
    return Math.max(0, Math.min(this.rows - 1, Math.floor((y - this.minY) / this.cellH)));
  }

  private forEachCell(count: number, fn: (cell: number, item: number) => void): void {
    const b = this.boxes;
    for (let i = 0; i < count; i++) {
      const x0 = b[i * 4] as number;
      if (Number.isNaN(x0)) continue;
      const c0 = this.col(x0);
      const c1 = this.col(b[i * 4 + 2] as number);
      const r0 = this.row(b[i * 4 + 1] as number);
      const r1 = this.row(b[i * 4 + 3] as number);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) fn(r * this.cols + c, i);
    }
  }

  private nextStamp(): number {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  /** Items whose box contains (x, y), in no particular order. */
  queryPoint(x: number, y: number, out: number[] = []): number[] {
    const b = this.boxes;
    if (x < this.minX || y < this.minY) return out;
    if (x > this.minX + this.cellW * this.cols || y > this.minY + this.cellH * this.rows)
      return out;
    const cell = this.row(y) * this.cols + this.col(x);
    const end = this.cellStart[cell + 1] as number;
    for (let k = this.cellStart[cell] as number; k < end; k++) {
      const i = this.cellItems[k] as number;
      if (
        (b[i * 4] as number) <= x &&
        x <= (b[i * 4 + 2] as number) &&
        (b[i * 4 + 1] as number) <= y &&
        y <= (b[i * 4 + 3] as number)
      ) {
        out.push(i);
      }
    }
    return out;
  }

  /** Items whose box intersects the rectangle, each once, in no particular order. */
  queryRect(minX: number, minY: number, maxX: number, maxY: number, out: number[] = []): number[] {
    const b = this.boxes;
    if (maxX < this.minX || maxY < this.minY) return out;
    if (minX > this.minX + this.cellW * this.cols || minY > this.minY + this.cellH * this.rows) {
      return out;
    }
    const stamp = this.nextStamp();
    const c0 = this.col(minX);
    const c1 = this.col(maxX);
    const r0 = this.row(minY);
    const r1 = this.row(maxY);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        const end = this.cellStart[cell + 1] as number;
        for (let k = this.cellStart[cell] as number; k < end; k++) {
          const i = this.cellItems[k] as number;
          if (this.seen[i] === stamp) continue;
          this.seen[i] = stamp;
          if (
            (b[i * 4] as number) <= maxX &&
            minX <= (b[i * 4 + 2] as number) &&
            (b[i * 4 + 1] as number) <= maxY &&
            minY <= (b[i * 4 + 3] as number)
          ) {
            out.push(i);
          }
        }
      }
    }
    return out;
  }
}

/**
 * The box around boxes (minX, minY, maxX, maxY per item) that are not NaN: all of them, or
 * those `indices` names. Null when there are none.
 */
export function boxesExtent(
  boxes: Float64Array,
  indices?: Iterable<number>,
): [number, number, number, number] | null {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const add = (i: number): void => {
    const x0 = boxes[i * 4] as number;
    if (Number.isNaN(x0)) return;
    minX = Math.min(minX, x0);
    minY = Math.min(minY, boxes[i * 4 + 1] as number);
    maxX = Math.max(maxX, boxes[i * 4 + 2] as number);
    maxY = Math.max(maxY, boxes[i * 4 + 3] as number);
  };
  if (indices) for (const i of indices) add(i);
  else for (let i = 0; i < boxes.length / 4; i++) add(i);
  return minX <= maxX ? [minX, minY, maxX, maxY] : null;
}

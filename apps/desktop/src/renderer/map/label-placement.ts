/**
 * Place labels that never overlap: candidates come in priority order (largest place first) and
 * each takes the first of four positions around its dot (right, left, above, below) whose box
 * touches no label or dot placed before it; a place with no free position gets no label (nor
 * dot). Boxes are looked up in a uniform grid, so placing n labels costs about n, not n².
 */

export interface LabelCandidate {
  /** The place's dot, in screen pixels. */
  readonly x: number;
  readonly y: number;
  /** Text width and height in pixels (measured by the caller: canvas measureText). */
  readonly width: number;
  readonly height: number;
}

export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

export interface PlacedLabel {
  /** Index into the candidates. */
  readonly index: number;
  /** The text's box; the text is drawn left-aligned, vertically centred in it. */
  readonly box: Box;
}

/** Gap between the dot and its text, and the dot's radius. */
export const LABEL_GAP = 4;
export const DOT_RADIUS = 2.5;
const CELL = 64;

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

function positions(c: LabelCandidate): Box[] {
  const { x, y, width: w, height: h } = c;
  const g = LABEL_GAP;
  return [
    { x0: x + g, y0: y - h / 2, x1: x + g + w, y1: y + h / 2 },
    { x0: x - g - w, y0: y - h / 2, x1: x - g, y1: y + h / 2 },
    { x0: x - w / 2, y0: y - g - h, x1: x + w / 2, y1: y - g },
    { x0: x - w / 2, y0: y + g, x1: x + w / 2, y1: y + g + h },
  ];
}

/**
 * Choose labels for `candidates` (priority order) inside a view of `width` x `height` pixels
 * (a label must lie wholly inside it). At most `limit` labels; none over a `reserved` box (the
 * graticule's degree labels).
 */
export function placeLabels(
  candidates: readonly LabelCandidate[],
  width: number,
  height: number,
  limit = 400,
  reserved: readonly Box[] = [],
): PlacedLabel[] {
  const grid = new Map<number, Box[]>();
  const cols = Math.ceil(width / CELL) + 1;
  const cellsOf = (b: Box): number[] => {
    const out: number[] = [];
    const cx0 = Math.max(0, Math.floor(b.x0 / CELL));
    const cx1 = Math.floor(b.x1 / CELL);
    const cy0 = Math.max(0, Math.floor(b.y0 / CELL));
    const cy1 = Math.floor(b.y1 / CELL);
    for (let cy = cy0; cy <= cy1; cy++)
      for (let cx = cx0; cx <= cx1; cx++) out.push(cy * cols + cx);
    return out;
  };
  const free = (b: Box): boolean =>
    cellsOf(b).every((cell) => !(grid.get(cell) ?? []).some((o) => boxesOverlap(o, b)));
  const add = (b: Box): void => {
    for (const cell of cellsOf(b)) {
      const list = grid.get(cell);
      if (list) list.push(b);
      else grid.set(cell, [b]);
    }
  };
  for (const b of reserved) add(b);
  const placed: PlacedLabel[] = [];
  for (let i = 0; i < candidates.length && placed.length < limit; i++) {
    const c = candidates[i]!;
    const r = DOT_RADIUS;
    const dot = { x0: c.x - r, y0: c.y - r, x1: c.x + r, y1: c.y + r };
    if (!free(dot)) continue;
    const box = positions(c).find(
      (b) => b.x0 >= 0 && b.y0 >= 0 && b.x1 <= width && b.y1 <= height && free(b),
    );
    if (!box) continue;
    add(dot);
    add(box);
    placed.push({ index: i, box });
  }
  return placed;
}

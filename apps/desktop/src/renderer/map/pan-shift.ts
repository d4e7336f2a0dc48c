/**
 * Redrawing a canvas layer after a pan without drawing everything again: at the same zoom and
 * size, the new canvas is the old one moved by the pan, plus what came into view. These are
 * the pure parts (the quicklook layer uses them: drawing 500 warped pictures is its slow path).
 */
import type { ViewTransform } from './draw-footprints';

/** Where the old canvas lands on the new one (CSS px), or null when it must be drawn whole. */
export function panShift(
  prev: ViewTransform | null,
  next: ViewTransform,
): { dx: number; dy: number } | null {
  if (!prev || prev.scale !== next.scale) return null;
  if (prev.width !== next.width || prev.height !== next.height) return null;
  const dx = prev.originX - next.originX;
  const dy = prev.originY - next.originY;
  // Nothing of the old canvas left in view, or a fractional move (blurs the copy): draw whole.
  if (Math.abs(dx) >= next.width || Math.abs(dy) >= next.height) return null;
  if (!Number.isInteger(dx) || !Number.isInteger(dy)) return null;
  return { dx, dy };
}

/** True when the screen box `[x0, y0, x1, y1]` lies wholly in the old canvas moved by `shift`. */
export function insideShifted(
  [x0, y0, x1, y1]: readonly [number, number, number, number],
  shift: { dx: number; dy: number },
  view: Pick<ViewTransform, 'width' | 'height'>,
): boolean {
  return (
    x0 >= shift.dx && y0 >= shift.dy && x1 <= shift.dx + view.width && y1 <= shift.dy + view.height
  );
}

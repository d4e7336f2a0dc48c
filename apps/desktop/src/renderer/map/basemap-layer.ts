/**
 * The offline basemap: land filled and country borders stroked on one canvas, from bundled
 * Natural Earth data, so the map means something with no tile server. With an online tile
 * layer underneath, only outlines are drawn (a land fill would hide the tiles).
 */
import { CanvasViewLayer } from './canvas-view-layer';
import type { ViewTransform } from './draw-footprints';
import type { ProjectedLines, WorldShapes } from './world-shapes';

export const BASEMAP_STYLE = {
  land: '#e8e4d8',
  coast: '#9a9483',
  border: 'rgba(120, 113, 98, 0.7)',
} as const;

export class BasemapLayer extends CanvasViewLayer {
  private shapes: WorldShapes | null = null;
  private outlineOnly = false;

  constructor() {
    super({ pane: 'eo-basemap', zIndex: 250, padding: 0.3 });
  }

  setShapes(shapes: WorldShapes): void {
    this.shapes = shapes;
    this.redraw();
  }

  /** Outlines only (when online tiles are shown beneath). */
  setOutlineOnly(on: boolean): void {
    if (on === this.outlineOnly) return;
    this.outlineOnly = on;
    this.redraw();
  }

  protected drawCanvas(_n: number, ctx: CanvasRenderingContext2D, view: ViewTransform): void {
    const shapes = this.shapes;
    if (!shapes) return;
    ctx.beginPath();
    traceLines(ctx, shapes.land, view, true);
    if (!this.outlineOnly) {
      ctx.fillStyle = BASEMAP_STYLE.land;
      ctx.fill('evenodd');
    }
    ctx.lineWidth = 0.8;
    ctx.strokeStyle = BASEMAP_STYLE.coast;
    ctx.stroke();
    ctx.beginPath();
    traceLines(ctx, shapes.borders, view, false);
    ctx.lineWidth = 0.6;
    ctx.strokeStyle = BASEMAP_STYLE.border;
    ctx.stroke();
  }
}

function traceLines(
  ctx: CanvasRenderingContext2D,
  lines: ProjectedLines,
  view: ViewTransform,
  closed: boolean,
): void {
  const { scale, originY } = view;
  const pts = lines.points;
  const n = lines.offsets.length - 1;
  // Three world copies, so the map has land wherever the user pans.
  for (let w = -1; w <= 1; w++) {
    const shift = w * scale - view.originX;
    if (shift + scale < 0 || shift > view.width) continue;
    for (let i = 0; i < n; i++) {
      const from = lines.offsets[i] as number;
      const to = lines.offsets[i + 1] as number;
      if (to - from < 2) continue;
      let lx = (pts[from * 2] as number) * scale + shift;
      let ly = (pts[from * 2 + 1] as number) * scale - originY;
      ctx.moveTo(lx, ly);
      for (let k = from + 1; k < to; k++) {
        const x = (pts[k * 2] as number) * scale + shift;
        const y = (pts[k * 2 + 1] as number) * scale - originY;
        if (Math.abs(x - lx) + Math.abs(y - ly) < 0.5 && k < to - 1) continue;
        ctx.lineTo(x, y);
        lx = x;
        ly = y;
      }
      if (closed) ctx.closePath();
    }
  }
}

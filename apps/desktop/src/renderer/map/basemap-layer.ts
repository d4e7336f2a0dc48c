/**
 * The offline basemap on canvases, from bundled Natural Earth data:
 * - `BasemapLayer` (below online tiles): land filled, lakes filled and rivers stroked in the
 *   water colour (the sea is the map's own background, `map-frame.css`), country borders.
 *   Online tiles that fail to load are transparent, so this map shows through.
 * - `BasemapLabelsLayer` (above tiles, below footprints): the graticule with degree labels and
 *   place names (`places.ts`), labels placed so that none overlap (`label-placement.ts`).
 */
import { CanvasViewLayer } from './canvas-view-layer';
import { prefersDark } from './color-scheme';
import type { ViewTransform } from './draw-footprints';
import { graticuleLines } from './graticule';
import { DOT_RADIUS, placeLabels, type Box, type LabelCandidate } from './label-placement';
import { labelZoom, type Places } from './places';
import type { ProjectedLines, WorldShapes } from './world-shapes';

export const BASEMAP_STYLE = {
  land: '#efebdf',
  coast: '#9a9483',
  border: 'rgba(120, 113, 98, 0.8)',
  /** The sea is the map element's background (map-frame.css): lakes and rivers match it. */
  water: '#aacbe3',
  river: '#7fb0d6',
  graticule: 'rgba(71, 85, 105, 0.28)',
  graticuleText: '#334155',
  placeText: '#1f2937',
  placeHalo: 'rgba(255, 255, 255, 0.9)',
  placeDot: '#374151',
} as const;

/** The same under prefers-color-scheme: dark: dark land, deep water, light names. */
export const BASEMAP_STYLE_DARK: { readonly [K in keyof typeof BASEMAP_STYLE]: string } = {
  land: '#262b33',
  coast: '#5b6472',
  border: 'rgba(156, 163, 175, 0.55)',
  /** map-frame.css's dark sea. */
  water: '#16304d',
  river: '#2b5a86',
  graticule: 'rgba(148, 163, 184, 0.3)',
  graticuleText: '#cbd5e1',
  placeText: '#e5e7eb',
  placeHalo: 'rgba(17, 24, 39, 0.9)',
  placeDot: '#d1d5db',
};

/** The palette of the scheme in use. */
export function basemapStyle(): { readonly [K in keyof typeof BASEMAP_STYLE]: string } {
  return prefersDark() ? BASEMAP_STYLE_DARK : BASEMAP_STYLE;
}

export const PLACE_FONT = '12px system-ui, sans-serif';
const LABEL_HEIGHT = 14;

/** Lakes (rings) and rivers (lines), projected. */
export interface WaterShapes {
  readonly lakes: ProjectedLines;
  readonly rivers: ProjectedLines;
}

export class BasemapLayer extends CanvasViewLayer {
  private shapes: WorldShapes | null = null;
  private water: WaterShapes | null = null;

  constructor() {
    super({ pane: 'eo-basemap', zIndex: 150, padding: 0.3 });
  }

  setShapes(shapes: WorldShapes): void {
    if (shapes === this.shapes) return;
    this.shapes = shapes;
    this.redrawSoon();
  }

  setWater(water: WaterShapes): void {
    if (water === this.water) return;
    this.water = water;
    this.redrawSoon();
  }

  protected drawCanvas(_n: number, ctx: CanvasRenderingContext2D, view: ViewTransform): void {
    const shapes = this.shapes;
    if (!shapes) return;
    ctx.lineJoin = 'round';
    ctx.beginPath();
    traceLines(ctx, shapes.land, view, true);
    ctx.fillStyle = basemapStyle().land;
    ctx.fill('evenodd');
    ctx.lineWidth = 0.8;
    ctx.strokeStyle = basemapStyle().coast;
    ctx.stroke();
    const water = this.water;
    if (water) {
      ctx.beginPath();
      traceLines(ctx, water.lakes, view, true);
      ctx.fillStyle = basemapStyle().water;
      ctx.fill('evenodd');
      ctx.beginPath();
      traceLines(ctx, water.rivers, view, false);
      // Rivers widen a little as the map zooms in (about 1 px at the world, 2.5 px at a scene).
      ctx.lineWidth = Math.min(2.5, Math.max(0.8, Math.log2(view.scale / 256) / 4));
      ctx.strokeStyle = basemapStyle().river;
      ctx.stroke();
    }
    ctx.beginPath();
    traceLines(ctx, shapes.borders, view, false);
    ctx.lineWidth = 0.8;
    ctx.setLineDash([4, 2]);
    ctx.strokeStyle = basemapStyle().border;
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

export class BasemapLabelsLayer extends CanvasViewLayer {
  private places: readonly Places[] = [];
  private showPlaces = true;
  private showGraticule = true;
  /**
   * Label widths per place set, measured once (NaN until then): measuring was most of a draw
   * at zoom 9-12, up to 3,000 names a draw at 5-20 µs each.
   */
  private readonly widths = new WeakMap<Places, Float32Array>();
  /** The names labelled by the last draw (for tests and the e2e check). */
  lastLabels: string[] = [];

  constructor() {
    super({ pane: 'eo-basemap-labels', zIndex: 260, padding: 0 });
  }

  /** The loaded place tiers, largest places first. */
  setPlaces(places: readonly Places[]): void {
    const same =
      places.length === this.places.length && places.every((p, i) => p === this.places[i]);
    if (same) return;
    this.places = places;
    this.redrawSoon();
  }

  setVisible(parts: { places?: boolean; graticule?: boolean }): void {
    this.showPlaces = parts.places ?? this.showPlaces;
    this.showGraticule = parts.graticule ?? this.showGraticule;
    this.redrawSoon();
  }

  protected drawCanvas(_n: number, ctx: CanvasRenderingContext2D, view: ViewTransform): void {
    const lines = this.showGraticule ? drawGraticule(ctx, view) : 0;
    const reserved = this.showGraticule ? graticuleLabelBoxes(view) : [];
    this.lastLabels = this.showPlaces ? this.drawPlaces(ctx, view, reserved) : [];
    // What was painted, readable by end-to-end tests (the canvas itself is only pixels).
    this.container?.setAttribute('data-places', this.lastLabels.join('|'));
    this.container?.setAttribute('data-graticule-lines', String(lines));
  }

  private drawPlaces(
    ctx: CanvasRenderingContext2D,
    view: ViewTransform,
    reserved: readonly Box[],
  ): string[] {
    const zoom = Math.log2(view.scale / 256);
    ctx.font = PLACE_FONT;
    const candidates: LabelCandidate[] = [];
    const names: string[] = [];
    const margin = 40;
    // Never measure more than this many names per draw (dense areas at zoom 10+).
    const MAX_CANDIDATES = 3000;
    for (const set of this.places) {
      let widths = this.widths.get(set);
      if (!widths) {
        widths = new Float32Array(set.names.length).fill(NaN);
        this.widths.set(set, widths);
      }
      for (let i = 0; i < set.names.length && candidates.length < MAX_CANDIDATES; i++) {
        if (labelZoom(set.population[i]!) > zoom) continue;
        // The world copy nearest the view (the map is one world wide).
        let x = (set.x[i] as number) * view.scale - view.originX;
        if (x < -margin) x += view.scale;
        else if (x > view.width + margin) x -= view.scale;
        const y = (set.y[i] as number) * view.scale - view.originY;
        if (x < -margin || x > view.width + margin || y < -margin || y > view.height + margin) {
          continue;
        }
        const name = set.names[i]!;
        let width = widths[i]!;
        if (Number.isNaN(width)) width = widths[i] = ctx.measureText(name).width;
        candidates.push({ x, y, width, height: LABEL_HEIGHT });
        names.push(name);
      }
    }
    const placed = placeLabels(candidates, view.width, view.height, undefined, reserved);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.lineJoin = 'round';
    ctx.fillStyle = basemapStyle().placeDot;
    ctx.beginPath();
    for (const p of placed) {
      const c = candidates[p.index]!;
      ctx.moveTo(c.x + DOT_RADIUS, c.y);
      ctx.arc(c.x, c.y, DOT_RADIUS, 0, 2 * Math.PI);
    }
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = basemapStyle().placeHalo;
    ctx.fillStyle = basemapStyle().placeText;
    for (const p of placed) {
      const name = names[p.index]!;
      const midY = (p.box.y0 + p.box.y1) / 2;
      ctx.strokeText(name, p.box.x0, midY);
      ctx.fillText(name, p.box.x0, midY);
    }
    return placed.map((p) => names[p.index]!);
  }
}

/** Where drawGraticule writes its degree labels (bottom and right edges), kept free of places. */
function graticuleLabelBoxes(view: ViewTransform): Box[] {
  const { meridians, parallels } = graticuleLines(view);
  const bottom = view.height - GRATICULE_LABEL_INSET;
  return [
    ...meridians.map((m) => ({ x0: m.at - 32, y0: bottom - 14, x1: m.at + 32, y1: bottom })),
    ...parallels.map((p) => ({ x0: view.width - 64, y0: p.at - 8, x1: view.width, y1: p.at + 8 })),
  ];
}

/** Distance of the meridians' labels from the bottom edge (the scale bar is below them). */
const GRATICULE_LABEL_INSET = 36;

/** Draw the graticule; returns the number of lines drawn. */
function drawGraticule(ctx: CanvasRenderingContext2D, view: ViewTransform): number {
  const { meridians, parallels } = graticuleLines(view);
  ctx.beginPath();
  for (const m of meridians) {
    ctx.moveTo(m.at, 0);
    ctx.lineTo(m.at, view.height);
  }
  for (const p of parallels) {
    ctx.moveTo(0, p.at);
    ctx.lineTo(view.width, p.at);
  }
  ctx.lineWidth = 1;
  ctx.strokeStyle = basemapStyle().graticule;
  ctx.stroke();
  ctx.font = '11px system-ui, sans-serif';
  ctx.lineWidth = 3;
  ctx.lineJoin = 'round';
  ctx.strokeStyle = basemapStyle().placeHalo;
  ctx.fillStyle = basemapStyle().graticuleText;
  // Meridians labelled along the bottom edge (the top has the map's tools), parallels along
  // the right edge (the left has the zoom buttons and the position box).
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  for (const m of meridians) {
    ctx.strokeText(m.label, m.at, view.height - GRATICULE_LABEL_INSET);
    ctx.fillText(m.label, m.at, view.height - GRATICULE_LABEL_INSET);
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const p of parallels) {
    ctx.strokeText(p.label, view.width - 6, p.at);
    ctx.fillText(p.label, view.width - 6, p.at);
  }
  return meridians.length + parallels.length;
}

export function traceLines(
  ctx: CanvasRenderingContext2D,
  lines: ProjectedLines,
  view: ViewTransform,
  closed: boolean,
): void {
  const { scale, originY } = view;
  const pts = lines.points;
  const boxes = lines.boxes;
  const n = lines.offsets.length - 1;
  // Three world copies, so the map has land wherever the user pans.
  for (let w = -1; w <= 1; w++) {
    const shift = w * scale - view.originX;
    if (shift + scale < 0 || shift > view.width) continue;
    for (let i = 0; i < n; i++) {
      const from = lines.offsets[i] as number;
      const to = lines.offsets[i + 1] as number;
      if (to - from < 2) continue;
      // Out of view (with a pixel of margin for the stroke): not traced.
      if (
        (boxes[i * 4] as number) * scale + shift > view.width + 2 ||
        (boxes[i * 4 + 2] as number) * scale + shift < -2 ||
        (boxes[i * 4 + 1] as number) * scale - originY > view.height + 2 ||
        (boxes[i * 4 + 3] as number) * scale - originY < -2
      ) {
        continue;
      }
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

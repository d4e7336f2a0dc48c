/**
 * ONE Leaflet layer for all footprints: a base canvas with every footprint (plain ones as one
 * path, selected ones as a second) and an overlay canvas for the hovered and the active
 * footprint, so hovering redraws one polygon, not 50,000. Hit tests go through a grid index.
 * The layer knows ids, not records: the catalog store stays the source of truth and pushes
 * selection / hover in; the layer reports hover and clicks out.
 */
import L from 'leaflet';
import { CanvasViewLayer } from './canvas-view-layer';
import { prefersDark } from './color-scheme';
import {
  BATCH_SIZE,
  isSpeck,
  paintSpecks,
  rgbaOf,
  traceFootprints,
  type Batching,
  type ViewTransform,
} from './draw-footprints';
import {
  packFootprints,
  packFootprintSet,
  type FootprintRings,
  type IdLookup,
  type PackedFootprints,
} from './footprints';
import { footprintsAt } from './hit-test';
import { mercX, mercY, unmercY as unY } from './mercator';
import { boxesExtent, GridIndex } from './spatial-index';

export interface FootprintClick {
  /** Footprints under the pointer, smallest first. */
  readonly ids: readonly string[];
  /** Ctrl/Cmd or Shift held: add to the selection instead of replacing it. */
  readonly additive: boolean;
}

export interface FootprintLayerOptions {
  readonly onHover?: (id: string | null) => void;
  readonly onClick?: (click: FootprintClick) => void;
}

export const FOOTPRINT_STYLE = {
  plain: { fill: 'rgba(37, 99, 235, 0.07)', stroke: 'rgba(29, 78, 216, 0.85)', width: 1 },
  selected: { fill: 'rgba(245, 158, 11, 0.28)', stroke: '#b45309', width: 1.5 },
  active: { fill: 'rgba(16, 185, 129, 0.25)', stroke: '#047857', width: 2.5 },
  hovered: { fill: 'rgba(220, 38, 38, 0.18)', stroke: '#dc2626', width: 2.5 },
} as const;

interface Style {
  readonly fill: string;
  readonly stroke: string;
  readonly width: number;
}
type Palette = { readonly [K in keyof typeof FOOTPRINT_STYLE]: Style };

/** The same under prefers-color-scheme: dark: light strokes that stand out on the dark land. */
export const FOOTPRINT_STYLE_DARK: Palette = {
  plain: { fill: 'rgba(96, 165, 250, 0.12)', stroke: 'rgba(147, 197, 253, 0.9)', width: 1 },
  selected: { fill: 'rgba(251, 191, 36, 0.3)', stroke: '#fbbf24', width: 1.5 },
  active: { fill: 'rgba(52, 211, 153, 0.3)', stroke: '#34d399', width: 2.5 },
  hovered: { fill: 'rgba(248, 113, 113, 0.25)', stroke: '#f87171', width: 2.5 },
};

/** The palette of the scheme in use. */
export function footprintStyle(): Palette {
  return prefersDark() ? FOOTPRINT_STYLE_DARK : FOOTPRINT_STYLE;
}

export class FootprintLayer extends CanvasViewLayer {
  private fp: PackedFootprints = packFootprints([], []);
  /**
   * The hit-test grid, built on the first hit test after new footprints: drawing does not use
   * it, and building it for 100,000 footprints (15 to 25 ms) held back their first draw.
   */
  private grid: GridIndex | null = null;
  private selectedMask = new Uint8Array(0);
  private selectedIds = new Set<string>();
  private hovered = -1;
  /**
   * The footprint under the pointer, apart from `hovered`: a list hover pushed in the same
   * footprint, and the pointer then moving onto it must still be reported (else the map's
   * hover never reached the list or the tooltip).
   */
  private pointed = -1;
  private active = -1;
  /** Imagery under the footprints (an offline raster): outlines only, no tinting fill. */
  private outlines = false;
  /** Footprints traced by the last base draw (for tests and the benchmark). */
  lastDrawn = 0;

  constructor(private readonly handlers: FootprintLayerOptions = {}) {
    super({ pane: 'eo-footprints', zIndex: 390, canvases: 2, padding: 0.1 });
  }

  /** Replace all footprints: one exterior ring per id, flat [lon, lat, ...]. */
  setFootprints(ids: readonly string[], rings: ReadonlyArray<ArrayLike<number>>): void {
    this.setPacked(packFootprints(ids, rings));
  }

  /**
   * Replace all footprints with the backend's decoded answer (its Float32 pairs read in place);
   * `indexOf`: each id's index, when the caller mapped them already.
   */
  setFootprintSet(set: FootprintRings, indexOf?: IdLookup): void {
    this.setPacked(packFootprintSet(set, indexOf));
  }

  setPacked(fp: PackedFootprints): void {
    const hoveredId = this.hovered >= 0 ? this.fp.ids[this.hovered] : undefined;
    const activeId = this.active >= 0 ? this.fp.ids[this.active] : undefined;
    this.fp = fp;
    this.grid = null;
    this.selectedMask = new Uint8Array(fp.count);
    for (const id of this.selectedIds) {
      const i = fp.indexOf.get(id);
      if (i !== undefined) this.selectedMask[i] = 1;
    }
    this.hovered = hoveredId !== undefined ? (fp.indexOf.get(hoveredId) ?? -1) : -1;
    this.active = activeId !== undefined ? (fp.indexOf.get(activeId) ?? -1) : -1;
    // In the next frame: a new search fits the map to its footprints right after (a moveend,
    // which redraws at the new view and takes this draw's place).
    this.redrawSoon();
  }

  get count(): number {
    return this.fp.count;
  }

  /** Each footprint's box in world units (x0, y0, x1, y1; NaN without geometry): the clusters'. */
  get boxes(): Float64Array {
    return this.fp.boxes;
  }

  /** The highlighted footprint (hovered on the map or pushed in from the list). */
  get hoveredId(): string | null {
    return this.hovered >= 0 ? (this.fp.ids[this.hovered] ?? null) : null;
  }

  get selectedCount(): number {
    let n = 0;
    for (const v of this.selectedMask) n += v;
    return n;
  }

  setSelection(ids: Iterable<string>): void {
    this.selectedIds = new Set(ids);
    this.selectedMask.fill(0);
    for (const id of this.selectedIds) {
      const i = this.fp.indexOf.get(id);
      if (i !== undefined) this.selectedMask[i] = 1;
    }
    this.redrawCanvas(0);
  }

  get outlinesOnly(): boolean {
    return this.outlines;
  }

  /** Outlines only (imagery under them: their fill would tint it), or filled as usual. */
  setOutlinesOnly(on: boolean): void {
    if (on === this.outlines) return;
    this.outlines = on;
    this.redraw();
  }

  /** Highlight from outside (list row hover); does not call onHover back. */
  setHovered(id: string | null): void {
    const i = id === null ? -1 : (this.fp.indexOf.get(id) ?? -1);
    if (i === this.hovered) return;
    this.hovered = i;
    this.redrawCanvas(1);
  }

  setActive(id: string | null): void {
    const i = id === null ? -1 : (this.fp.indexOf.get(id) ?? -1);
    if (i === this.active) return;
    this.active = i;
    this.redrawCanvas(1);
  }

  /** Ids of the footprints containing a map position, smallest first. */
  idsAt(latlng: L.LatLng): string[] {
    let x = mercX(latlng.lng);
    x -= Math.floor(x); // fold world copies back into 0..1
    this.grid ??= new GridIndex(this.fp.boxes);
    return footprintsAt(this.fp, this.grid, x, mercY(latlng.lat)).map((i) => this.fp.ids[i]!);
  }

  /** Bounds of the given footprints (or all of them), null when there are none. */
  boundsOf(ids?: Iterable<string>): L.LatLngBounds | null {
    // One pass over the boxes, one LatLngBounds: not two LatLngs and an extend per footprint
    // (~25 ms for a new search's 100,000, fitted as they arrive).
    const box = boxesExtent(this.fp.boxes, ids && this.indicesOf(ids));
    if (!box) return null;
    const [x0, y0, x1, y1] = box;
    return L.latLngBounds(L.latLng(unY(y1), x0 * 360 - 180), L.latLng(unY(y0), x1 * 360 - 180));
  }

  private *indicesOf(ids: Iterable<string>): Generator<number> {
    for (const id of ids) {
      const i = this.fp.indexOf.get(id);
      if (i !== undefined) yield i;
    }
  }

  override getEvents(): { [name: string]: L.LeafletEventHandlerFn } {
    return {
      ...super.getEvents(),
      mousemove: (e) => this.onMouseMove(e as L.LeafletMouseEvent),
      mouseout: () => this.hoverFromMap(-1),
      click: (e) => this.onMapClick(e as L.LeafletMouseEvent),
    };
  }

  override onAdd(map: L.Map): this {
    super.onAdd(map);
    this.showHighlight();
    return this;
  }

  protected override redrawCanvas(n: number): void {
    super.redrawCanvas(n);
    if (n === 1) this.showHighlight();
  }

  /**
   * The highlight canvas is empty most of the time: left out of the page then, so painting the
   * map after a pan blends one full-view bitmap less (pan bench, bench/pan.ts).
   */
  private showHighlight(): void {
    const highlight = this.canvases[1];
    if (highlight) highlight.style.display = this.active < 0 && this.hovered < 0 ? 'none' : '';
  }

  protected drawCanvas(n: number, ctx: CanvasRenderingContext2D, view: ViewTransform): void {
    const mask = this.selectedMask;
    const fills = !this.outlines;
    if (n === 0) {
      const fp = this.fp;
      const plain = footprintStyle().plain;
      // Specks first (their pixels replace what is under them), then the traced footprints.
      const specks = paintSpecks(
        ctx,
        fp,
        view,
        this.dpr,
        rgbaOf(plain.stroke),
        (i) => mask[i] === 0,
      );
      const plainTraced = (i: number): boolean => mask[i] === 0 && !isSpeck(fp, i, view.scale);
      this.lastDrawn =
        specks +
        fill(
          ctx,
          plain,
          (batch) => traceFootprints(ctx, fp, view, plainTraced, undefined, batch),
          fills,
        );
      if (this.selectedIds.size > 0) {
        this.lastDrawn += fill(
          ctx,
          footprintStyle().selected,
          (batch) => traceFootprints(ctx, this.fp, view, (i) => mask[i] === 1, undefined, batch),
          fills,
        );
      }
      return;
    }
    for (const [i, style] of [
      [this.active, footprintStyle().active],
      [this.hovered, footprintStyle().hovered],
    ] as const) {
      if (i < 0) continue;
      fill(ctx, style, () => traceFootprints(ctx, this.fp, view, undefined, [i]), fills);
      this.ringIfTiny(ctx, i, view, style);
    }
  }

  /** A footprint a few pixels wide is invisible as an outline: circle it so it can be found. */
  private ringIfTiny(
    ctx: CanvasRenderingContext2D,
    i: number,
    view: ViewTransform,
    style: Style,
  ): void {
    const b = this.fp.boxes;
    const x0 = b[i * 4] as number;
    if (Number.isNaN(x0)) return;
    const w = ((b[i * 4 + 2] as number) - x0) * view.scale;
    const h = ((b[i * 4 + 3] as number) - (b[i * 4 + 1] as number)) * view.scale;
    if (Math.max(w, h) >= 10) return;
    const cy =
      (((b[i * 4 + 1] as number) + (b[i * 4 + 3] as number)) / 2) * view.scale - view.originY;
    for (let copy = -1; copy <= 1; copy++) {
      const cx = ((x0 + (b[i * 4 + 2] as number)) / 2 + copy) * view.scale - view.originX;
      if (cx < -20 || cx > view.width + 20) continue;
      ctx.beginPath();
      ctx.arc(cx, cy, 9, 0, 2 * Math.PI);
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = style.stroke;
      ctx.stroke();
    }
  }

  private onMouseMove(e: L.LeafletMouseEvent): void {
    // While the map is dragged the pointer does not point at a scene: no hit test, no hover
    // (which scrolls the list and moves the tooltip in every frame of a pan).
    const drag = (this._map as L.Map | undefined)?.dragging as
      { moving?: () => boolean } | undefined;
    if (drag?.moving?.()) return;
    const first = this.idsAt(e.latlng)[0];
    this.hoverFromMap(first === undefined ? -1 : (this.fp.indexOf.get(first) ?? -1));
  }

  private hoverFromMap(i: number): void {
    if (i === this.pointed) return;
    this.pointed = i;
    this.hovered = i;
    const container = (this._map as L.Map | undefined)?.getContainer();
    if (container) container.style.cursor = i >= 0 ? 'pointer' : '';
    this.redrawCanvas(1);
    this.handlers.onHover?.(i >= 0 ? this.fp.ids[i]! : null);
  }

  private onMapClick(e: L.LeafletMouseEvent): void {
    const ids = this.idsAt(e.latlng);
    const oe = e.originalEvent;
    this.handlers.onClick?.({ ids, additive: oe.ctrlKey || oe.metaKey || oe.shiftKey });
  }
}

/** Paint what `trace` traces, one fill (unless `fills` is false) and one stroke per batch. */
function fill(
  ctx: CanvasRenderingContext2D,
  style: Style,
  trace: (batch: Batching) => number,
  fills: boolean,
): number {
  ctx.fillStyle = style.fill;
  ctx.strokeStyle = style.stroke;
  ctx.lineWidth = style.width;
  const paint = (): void => {
    if (fills) ctx.fill('nonzero');
    ctx.stroke();
    ctx.beginPath();
  };
  ctx.beginPath();
  const n = trace({ size: BATCH_SIZE, flush: paint });
  paint();
  return n;
}

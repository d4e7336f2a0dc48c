/**
 * A Leaflet layer that owns one or more full-view canvases and redraws them itself: the base
 * of the footprint layer and the offline basemap. Positioning follows Leaflet's own renderers:
 * the canvases cover the view plus a margin (so a pan shows drawn content), are redrawn when a
 * move or zoom ends, and are scaled with a CSS transform during the zoom animation.
 */
import L from 'leaflet';
import { onSchemeChange } from './color-scheme';
import { worldScale } from './mercator';
import { NextFrame } from './next-frame';
import type { ViewTransform } from './draw-footprints';

export interface CanvasViewOptions {
  /** Pane name; created with this z-index when the map has no such pane. */
  readonly pane: string;
  readonly zIndex: number;
  /** Extra drawn area around the view, as a fraction of its size on each side. */
  readonly padding?: number;
  /** Number of stacked canvases (drawn back to front). */
  readonly canvases?: number;
}

export abstract class CanvasViewLayer extends L.Layer {
  protected container: HTMLDivElement | null = null;
  protected canvases: HTMLCanvasElement[] = [];
  protected view: ViewTransform | null = null;
  /** Device pixel ratio the canvases were sized for. */
  protected dpr = 1;
  private zoom = 0;
  private topLeft: L.LatLng | null = null;
  private readonly opts: Required<CanvasViewOptions>;
  /** Unsubscribes from colour-scheme changes (the palettes follow prefers-color-scheme). */
  private stopScheme: (() => void) | null = null;
  /** The redraw `redrawSoon` asked for, until it draws or a redraw comes first. */
  private readonly soon = new NextFrame(() => this.redraw());

  constructor(options: CanvasViewOptions) {
    super();
    this.opts = { padding: 0.3, canvases: 1, ...options };
  }

  /** Draw canvas `n` for the current view (the context is already scaled to CSS pixels). */
  protected abstract drawCanvas(
    n: number,
    ctx: CanvasRenderingContext2D,
    view: ViewTransform,
  ): void;

  override onAdd(map: L.Map): this {
    if (!map.getPane(this.opts.pane)) {
      const pane = map.createPane(this.opts.pane);
      pane.style.zIndex = String(this.opts.zIndex);
      pane.style.pointerEvents = 'none';
    }
    const container = L.DomUtil.create('div', 'eo-canvas-view leaflet-zoom-animated');
    container.style.position = 'absolute';
    for (let n = 0; n < this.opts.canvases; n++) {
      const canvas = L.DomUtil.create('canvas', 'eo-canvas-view__canvas', container);
      canvas.style.position = 'absolute';
      canvas.style.left = '0';
      canvas.style.top = '0';
      this.canvases.push(canvas);
    }
    this.container = container;
    map.getPane(this.opts.pane)?.appendChild(container);
    this.stopScheme = onSchemeChange(() => this.redraw());
    // Placed now, drawn in the next frame: a layer is added as the map is made, and the map is
    // usually moved before its first paint (fitted to the first results, a saved view), which
    // draws it at once; drawn here too, the first screen drew every layer twice.
    this.place();
    this.redrawSoon();
    return this;
  }

  override onRemove(): this {
    this.soon.cancel();
    this.stopScheme?.();
    this.stopScheme = null;
    this.container?.remove();
    this.container = null;
    this.canvases = [];
    this.view = null;
    return this;
  }

  override getEvents(): { [name: string]: L.LeafletEventHandlerFn } {
    return {
      // No viewreset: Leaflet fires it only right after a moveend (`_resetView`, `stop`), which
      // placed and drew already (a zoom without animation drew everything twice).
      moveend: () => this.reset(),
      resize: () => this.reset(),
      zoomanim: (e) => this.animateZoom(e as L.ZoomAnimEvent),
    };
  }

  /**
   * Re-place the canvases over the current view and redraw them all, unless the view is the one
   * drawn: Leaflet ends a move that moved nothing with a moveend too (fitting a map to bounds it
   * already shows as fitted: the catalog map opened where its results were last fitted).
   */
  reset(): void {
    if (this.place()) this.redraw();
  }

  /**
   * Place and size the canvases over the current view; false when not on a map, or when the view
   * is the one drawn (the canvases are then left as they are: resizing one clears it).
   */
  private place(): boolean {
    const map = this._map as L.Map | undefined;
    if (!map || !this.container) return false;
    const size = map.getSize();
    const pad = this.opts.padding;
    const min = map.containerPointToLayerPoint(size.multiplyBy(-pad)).round();
    const width = Math.round(size.x * (1 + 2 * pad));
    const height = Math.round(size.y * (1 + 2 * pad));
    L.DomUtil.setPosition(this.container, min);
    this.zoom = map.getZoom();
    this.topLeft = map.layerPointToLatLng(min);
    const origin = map.getPixelOrigin().add(min);
    const dpr = globalThis.devicePixelRatio || 1;
    const view = {
      scale: worldScale(this.zoom),
      originX: origin.x,
      originY: origin.y,
      width,
      height,
    };
    const was = this.view;
    if (
      was !== null &&
      dpr === this.dpr &&
      was.scale === view.scale &&
      was.originX === view.originX &&
      was.originY === view.originY &&
      was.width === width &&
      was.height === height
    ) {
      return false;
    }
    this.dpr = dpr;
    for (const canvas of this.canvases) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
    }
    this.view = view;
    return true;
  }

  /** Redraw every canvas for the current placement (now: a draw asked for the next frame is done). */
  redraw(): void {
    this.soon.cancel();
    for (let n = 0; n < this.canvases.length; n++) this.redrawCanvas(n);
  }

  /**
   * Redraw every canvas in the next animation frame, before it is painted: what changes the
   * drawn content calls this, so content and view changing in one task draw once. A new
   * search's footprints arrive, then fitting the map to them moves it: drawn right away, the
   * new set was drawn twice, once at the old view (100,000 footprints: ~70 ms each).
   */
  protected redrawSoon(): void {
    if (this.container) this.soon.request();
  }

  protected redrawCanvas(n: number): void {
    // The whole layer is drawn in the next frame anyway.
    if (this.soon.pending) return;
    const canvas = this.canvases[n];
    const view = this.view;
    if (!canvas || !view) return;
    // null where canvas is not implemented (happy-dom in component tests).
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, view.width, view.height);
    this.drawCanvas(n, ctx, view);
  }

  private animateZoom(e: L.ZoomAnimEvent): void {
    const map = this._map as L.Map | undefined;
    if (!map || !this.container || !this.topLeft) return;
    const scale = map.getZoomScale(e.zoom, this.zoom);
    const panePos = L.DomUtil.getPosition(map.getPane('mapPane') as HTMLElement);
    const newOrigin = map
      .project(e.center, e.zoom)
      .subtract(map.getSize().divideBy(2))
      .add(panePos)
      .round();
    const offset = map.project(this.topLeft, e.zoom).subtract(newOrigin);
    L.DomUtil.setTransform(this.container, offset, scale);
  }
}

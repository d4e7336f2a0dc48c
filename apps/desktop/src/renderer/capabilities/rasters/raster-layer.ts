/**
 * An offline raster on a Leaflet map: a GridLayer whose 256-px canvas tiles the raster worker
 * paints (reprojected from the raster's UTM grid, the right level for the zoom, the band
 * combination or index of its style) into bitmaps that the canvases take as they are
 * (`bitmaprenderer`), a budget of them per animation frame, nearest the centre first
 * (tile-commits.ts). Tiles are only asked inside the raster's bounds; a tile scrolled away
 * before it was painted is cancelled in the worker, and dropped if it had arrived. A new style repaints the tiles
 * in place (no blank flash). After each move the worker is told the view, and decodes ahead of
 * the next pan or zoom while idle (raster-read-ahead.ts), until the next move begins. Its pane sits above the quicklooks and
 * under the footprints.
 */
import L from 'leaflet';
import type { RasterClient, TileRequest } from './raster-client';
import type { RasterStyle } from './raster-style';
import { tileCommits, type TileCommitQueue } from './tile-commits';

export const RASTER_PANE = 'eo-rasters';
/** Above the quicklooks (380) and their compare (385), under the footprints (390). */
export const RASTER_PANE_Z = 386;

export interface RasterLayerOptions {
  readonly client: RasterClient;
  readonly rasterId: string;
  readonly style: RasterStyle;
  /** [west, south, east, north]: no tile is asked outside. */
  readonly bounds: readonly [number, number, number, number];
  readonly opacity?: number;
  /** Pane name (compare puts each side in its own, clipped). */
  readonly pane?: string;
  readonly zIndex?: number;
  /** Called after each tile with content is on its canvas (tests, the first-picture benchmark). */
  readonly onTilePainted?: () => void;
  /** Where finished tiles wait for their frame (default: the app's queue). */
  readonly commits?: TileCommitQueue;
}

interface RasterTile extends HTMLCanvasElement {
  _eoRequest?: TileRequest;
  /** Leaflet's "tile ready" until a paint of the tile ends (a new style may replace the first). */
  _eoDone?: L.DoneCallback | undefined;
  _eoCoords?: L.Coords;
}

export class RasterLayer extends L.GridLayer {
  private style: RasterStyle;
  private readonly opts: RasterLayerOptions;
  /** Tiles painted with content since the layer was added (the first one is the first picture). */
  painted = 0;
  /** Bumped by each new style (tiles say which one they were painted with). */
  styleSeq = 0;
  private readonly commits: TileCommitQueue;

  constructor(opts: RasterLayerOptions) {
    const [w, s, e, n] = opts.bounds;
    super({
      pane: opts.pane ?? RASTER_PANE,
      tileSize: 256,
      bounds: L.latLngBounds([s, w], [n, e]),
      opacity: opts.opacity ?? 1,
      noWrap: true,
      // Not during the zoom animation (the scaled tiles stay until the new zoom's are painted).
      updateWhenZooming: false,
      keepBuffer: 2,
      className: 'eo-raster-layer',
    });
    this.opts = opts;
    this.style = opts.style;
    this.commits = opts.commits ?? tileCommits();
    // A tile Leaflet drops (scrolled away, another zoom): the worker stops, its bitmap is dropped.
    this.on('tileunload', (e: L.TileEvent) => {
      const canvas = e.tile as unknown as RasterTile;
      canvas._eoRequest?.cancel();
      canvas._eoRequest = undefined;
    });
  }

  get rasterId(): string {
    return this.opts.rasterId;
  }

  override onAdd(map: L.Map): this {
    const name = this.opts.pane ?? RASTER_PANE;
    if (!map.getPane(name)) {
      const pane = map.createPane(name);
      pane.style.zIndex = String(this.opts.zIndex ?? RASTER_PANE_Z);
      pane.style.pointerEvents = 'none';
    }
    super.onAdd(map);
    map.on('moveend', this.readAheadOfView, this);
    map.on('movestart', this.stopReadingAhead, this);
    this.readAheadOfView();
    return this;
  }

  /** Tells the worker the view after each move: it decodes ahead of the next one while idle. */
  private readAheadOfView(): void {
    const map = this._map as L.Map | undefined;
    if (!map) return;
    const b = map.getBounds();
    const z = Math.round(map.getZoom());
    this.opts.client.readAhead(this.opts.rasterId, {
      z,
      bounds: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()],
    });
  }

  /** A move began: the worker stops decoding ahead (the move's own tiles, and frames, go first). */
  private stopReadingAhead(): void {
    this.opts.client.readAhead(this.opts.rasterId, null);
  }

  protected override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const canvas = document.createElement('canvas') as RasterTile;
    const size = this.getTileSize();
    canvas.width = size.x;
    canvas.height = size.y;
    canvas.setAttribute('role', 'presentation');
    this.paint(canvas, coords, done);
    return canvas;
  }

  private paint(canvas: RasterTile, coords: L.Coords, done?: L.DoneCallback): void {
    canvas._eoRequest?.cancel();
    const size = this.getTileSize().x;
    const request = this.opts.client.tile(
      this.opts.rasterId,
      { z: coords.z, x: coords.x, y: coords.y, size },
      this.style,
    );
    const seq = this.styleSeq;
    canvas._eoRequest = request;
    canvas._eoCoords = coords;
    if (done) canvas._eoDone = done;
    const ready = (e?: Error) => {
      const d = canvas._eoDone;
      canvas._eoDone = undefined;
      d?.(e, canvas);
    };
    // The request is still the canvas's (not repainted, unloaded) and the layer on a map.
    const wanted = () => canvas._eoRequest === request && Boolean(this._map);
    request.image.then(
      (image) =>
        this.commits.add({
          priority: () => this.distanceFromCentre(coords),
          stale: () => !wanted(),
          drop: () => image?.close(),
          commit: () => {
            canvas._eoRequest = undefined;
            // Hands the worker's bitmap to the canvas: no pixel passes through the page's thread.
            canvas.getContext('bitmaprenderer')?.transferFromImageBitmap(image);
            if (image) {
              this.painted++;
              // Which style drew it (tests wait for a repaint after a change of style).
              canvas.dataset.painted = String(seq);
              this.opts.onTilePainted?.();
            }
            ready();
          },
        }),
      (e: unknown) => {
        if (!wanted()) return;
        canvas._eoRequest = undefined;
        ready(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }

  /** A tile's distance from the view's centre now, in tiles (another zoom's go after). */
  private distanceFromCentre(coords: L.Coords): number {
    const map = this._map as L.Map | undefined;
    if (!map) return Infinity;
    const z = Math.round(map.getZoom());
    const centre = map.project(map.getCenter(), coords.z).divideBy(this.getTileSize().x);
    const d = Math.hypot(coords.x + 0.5 - centre.x, coords.y + 0.5 - centre.y);
    return coords.z === z ? d : 1e6 + d;
  }

  /** Draws with another style: every current tile repainted where it is. */
  setStyle(style: RasterStyle): void {
    if (style === this.style) return;
    this.style = style;
    this.styleSeq++;
    this.getContainer()?.setAttribute('data-style', String(this.styleSeq));
    const tiles = (
      this as unknown as { _tiles: Record<string, { el: RasterTile; coords: L.Coords }> }
    )._tiles;
    for (const t of Object.values(tiles ?? {})) this.paint(t.el, t.coords);
  }

  override onRemove(map: L.Map): this {
    const tiles = (this as unknown as { _tiles: Record<string, { el: RasterTile }> })._tiles;
    for (const t of Object.values(tiles ?? {})) {
      t.el._eoRequest?.cancel();
      t.el._eoRequest = undefined;
    }
    map.off('moveend', this.readAheadOfView, this);
    map.off('movestart', this.stopReadingAhead, this);
    super.onRemove(map);
    return this;
  }
}

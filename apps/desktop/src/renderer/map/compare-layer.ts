/**
 * "Compare two scenes": scene A's quicklook left of a vertical divider, scene B's right of it,
 * each warped onto its footprint exactly as the quicklook layer draws it (the same pictures
 * from the mirror, so it works offline), clipped to its side. The divider is a fraction of the
 * map's width (0: all B, 1: all A) and stays put on the screen while the map pans: the canvas
 * moves with the map, so each move redraws the two clips (two pictures: cheap).
 */
import type L from 'leaflet';
import type { ViewTransform } from './draw-footprints';
import { QuicklookLayer, type QuicklookUrlOf } from './quicklook-layer';

/** Canvas x of a divider at `split` of the map's width: the map's left edge moved since reset. */
export function dividerCanvasX(
  split: number,
  mapWidth: number,
  mapLeftWorld: number,
  view: ViewTransform,
): number {
  return mapLeftWorld - view.originX + split * mapWidth;
}

export class CompareLayer extends QuicklookLayer {
  protected override shiftOnPan = false;
  private pair: readonly [string, string] | null = null;
  private split = 0.5;

  constructor(urlOf: QuicklookUrlOf) {
    // Above the other quicklooks (380), under the footprint outlines.
    super(urlOf, { pane: 'eo-compare', zIndex: 385 });
  }

  /** The scenes compared: A on the left, B on the right (null: nothing drawn). */
  setPair(pair: readonly [string, string] | null): void {
    this.pair = pair;
    this.redraw();
  }

  /** Where the divider is, as a fraction of the map's width (clamped to 0..1). */
  setSplit(split: number): void {
    this.split = Math.min(1, Math.max(0, split));
    this.scheduleRedraw();
  }

  override getEvents(): { [name: string]: L.LeafletEventHandlerFn } {
    return { ...super.getEvents(), move: () => this.scheduleRedraw() };
  }

  protected override drawCanvas(_n: number, ctx: CanvasRenderingContext2D, view: ViewTransform) {
    const canvas = this.canvases[0];
    const map = this._map as L.Map | undefined;
    if (!this.pair || !map || !canvas) {
      canvas?.setAttribute('data-compare', 'none');
      return;
    }
    const x = dividerCanvasX(this.split, map.getSize().x, map.getPixelBounds().min!.x, view);
    const sides = [
      { id: this.pair[0], from: 0, to: x },
      { id: this.pair[1], from: x, to: view.width },
    ];
    const shown: string[] = [];
    for (const side of sides) {
      const placed = this.placedOf(side.id);
      let state = 'none';
      if (placed && side.to > side.from) {
        ctx.save();
        ctx.beginPath();
        ctx.rect(side.from, 0, side.to - side.from, view.height);
        ctx.clip();
        state = this.drawPlaced(ctx, view, placed) > 0 ? 'drawn' : 'waiting';
        ctx.restore();
      }
      shown.push(state);
    }
    canvas.setAttribute('data-compare', shown.join(' '));
  }
}

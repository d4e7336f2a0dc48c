/**
 * The mirrored quicklooks drawn on their footprints: each picture warped onto the four corners
 * `quicklookCorners` gives for the footprint's ring (the same rule the service renders by), on
 * one canvas under the footprint outlines. At most `MAX_QUICKLOOKS` records in view are drawn
 * (the first ones of the search's order), the first on top (newest first by default: the
 * latest look at a place covers older ones) and the open record above all; the overview is used where a picture covers more
 * screen pixels than the thumbnail has, once it loaded, else the thumbnail. Pictures load as
 * plain images from the mirror (ui/quicklook-source.ts); a missing one is
 * remembered and not asked for again until the footprints change or pictures arrive
 * (`retryMissing`: a sync stored some).
 */
import { QUICKLOOK_PIXELS, quicklookCorners, type QuicklookVariant } from '@eo/domain';
import type L from 'leaflet';
import type { FootprintSet } from '../../shared/contract';
import { CanvasViewLayer } from './canvas-view-layer';
import type { ViewTransform } from './draw-footprints';
import { mercX, mercY } from './mercator';
import { insideShifted, panShift } from './pan-shift';
import { drawWarped, type Point } from './warp-image';

/** Records drawn at most (the first in view, in the search's order). */
export const MAX_QUICKLOOKS = 200;
/** Pictures kept decoded (thumbnails ~256 kB of pixels each, overviews 4 MB). */
const MAX_IMAGES = 400;

export interface QuicklookLayerOptions {
  readonly pane?: string;
  readonly zIndex?: number;
  /** Records drawn at most (default MAX_QUICKLOOKS; the map benchmark draws 500). */
  readonly maxDrawn?: number;
  /** Pictures kept decoded (default MAX_IMAGES; at least `maxDrawn`, else every draw reloads). */
  readonly maxImages?: number;
}

export type QuicklookUrlOf = (recordId: string, variant: QuicklookVariant) => string | null;

export interface Placed {
  readonly id: string;
  /** Corners in world units (mercator 0..1): top-left, top-right, bottom-right, bottom-left. */
  readonly corners: readonly [Point, Point, Point, Point];
  /** [minX, minY, maxX, maxY] in world units. */
  readonly box: readonly [number, number, number, number];
  /**
   * The footprint's ring in world units, the picture clipped to it: a footprint that is not a
   * four-cornered box (a cut scene, a rotated swath) shows no picture past its outline. Empty:
   * not clipped (a ring across the antimeridian).
   */
  readonly outline: readonly Point[];
}

/** The ring (flat lon/lat pairs) in world units; empty when it crosses the antimeridian. */
export function outlineOfRing(ring: ArrayLike<number>): Point[] {
  const out: Point[] = [];
  for (let i = 0; i + 1 < ring.length; i += 2) {
    const lon = ring[i]!;
    if (out.length > 0 && Math.abs(lon - ring[i - 2]!) > 180) return [];
    out.push([mercX(lon), mercY(ring[i + 1]!)]);
  }
  return out.length >= 3 ? out : [];
}

/** Clips `ctx` to an outline (world units) in `view`; false (nothing clipped) without one. */
export function clipToOutline(
  ctx: Pick<CanvasRenderingContext2D, 'beginPath' | 'moveTo' | 'lineTo' | 'closePath' | 'clip'>,
  outline: readonly Point[],
  { scale, originX, originY }: ViewTransform,
): boolean {
  if (outline.length < 3) return false;
  ctx.beginPath();
  outline.forEach((p, k) => {
    const x = p[0] * scale - originX;
    const y = p[1] * scale - originY;
    if (k === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  });
  ctx.closePath();
  ctx.clip();
  return true;
}

type Loaded =
  | { state: 'loading' | 'missing'; img: HTMLImageElement }
  | { state: 'ready'; img: HTMLImageElement };

/** The ring as `quicklookCorners` takes it: a Polygon of its points, and its bbox. */
export function cornersOfRing(ring: ArrayLike<number>): [number, number][] | null {
  const pts: [number, number][] = [];
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let i = 0; i + 1 < ring.length; i += 2) {
    const lon = ring[i]!;
    const lat = ring[i + 1]!;
    pts.push([lon, lat]);
    w = Math.min(w, lon);
    e = Math.max(e, lon);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  if (pts.length === 0) return null;
  return quicklookCorners({ type: 'Polygon', coordinates: [pts] }, [w, s, e, n]);
}

/**
 * What is drawn in the view `[x0, y0, x1, y1]` (world units), back to front: the first
 * `max` records of the search's order that touch it, the last of them first (the first ends on
 * top), and the record `top` (the open one) last, above all, even past `max`.
 */
export function drawOrder<P extends Pick<Placed, 'id' | 'box'>>(
  placed: readonly P[],
  [x0, y0, x1, y1]: readonly [number, number, number, number],
  top: string | null,
  max = MAX_QUICKLOOKS,
): P[] {
  const inView: P[] = [];
  let above: P | null = null;
  for (const p of placed) {
    const [bx0, by0, bx1, by1] = p.box;
    if (bx1 < x0 || bx0 > x1 || by1 < y0 || by0 > y1) continue;
    if (p.id === top) above = p;
    else if (inView.length < max) inView.push(p);
  }
  inView.reverse();
  if (above) inView.push(above);
  return inView;
}

export class QuicklookLayer extends CanvasViewLayer {
  private ids: readonly string[] = [];
  /** Record i's ring, flat lon, lat (read when it is first placed). */
  private ringOf: (i: number) => ArrayLike<number> = () => [];
  /** Per record, its corners' box in world units (minX NaN: no corners). */
  private boxes: Float64Array = new Float64Array(0);
  private placedCache = new Map<number, Placed | null>();
  private readonly images = new Map<string, Loaded>();
  private opacity = 0.85;
  private pending = false;
  /** The record drawn above all others (the one open in the detail panel). */
  private top: string | null = null;
  /** How many pictures the last draw put on the map (`data-drawn`, and `data-overviews` of them). */
  drawn = 0;

  private readonly paneName: string;
  private readonly maxDrawn: number;
  private readonly maxImages: number;

  constructor(
    private readonly urlOf: QuicklookUrlOf,
    options: QuicklookLayerOptions = {},
  ) {
    const pane = options.pane ?? 'eo-quicklooks';
    super({ pane, zIndex: options.zIndex ?? 380, padding: 0.1 });
    this.paneName = pane;
    this.maxDrawn = options.maxDrawn ?? MAX_QUICKLOOKS;
    this.maxImages = Math.max(options.maxImages ?? MAX_IMAGES, this.maxDrawn);
  }

  /**
   * Only each ring's box is worked out here (no objects per record): with 100,000 footprints,
   * placing every quicklook up front took longer than decoding the whole answer, and it ran
   * before the first draw of the footprints. Corners are worked out for the records a draw
   * picks (a few hundred at most), then kept. The box is the ring's lon/lat box projected,
   * which is the box of its corners: `quicklookCorners` takes either the ring's first four
   * points (a closed five-point ring) or the corners of that box.
   */
  setFootprints(ids: readonly string[], rings: ReadonlyArray<ArrayLike<number>>): void {
    const count = Math.min(ids.length, rings.length);
    const boxes = new Float64Array(count * 4);
    for (let i = 0; i < count; i++) {
      const ring = rings[i]!;
      projectedBox(ring, 0, ring.length, boxes, i);
    }
    this.replace(ids.slice(0, count), boxes, (i) => rings[i]!);
  }

  /**
   * The backend's decoded answer, its coordinates read in place: no array per record (100,000
   * records: ~10 ms of views made only to find their boxes).
   */
  setFootprintSet(set: FootprintSet): void {
    const { ids, offsets: o, coords } = set;
    const boxes = new Float64Array(ids.length * 4);
    for (let i = 0; i < ids.length; i++) projectedBox(coords, o[i]! * 2, o[i + 1]! * 2, boxes, i);
    this.replace(ids, boxes, (i) => coords.subarray(o[i]! * 2, o[i + 1]! * 2));
  }

  private replace(
    ids: readonly string[],
    boxes: Float64Array,
    ringOf: (i: number) => ArrayLike<number>,
  ): void {
    this.ids = ids;
    this.ringOf = ringOf;
    this.boxes = boxes;
    this.placedCache = new Map();
    // New footprints (a search or a sync): pictures missing before may be there now.
    this.retryMissing();
  }

  /** Record `i` placed: its corners worked out on first use (null: it has none). */
  private placedAt(i: number): Placed | null {
    const known = this.placedCache.get(i);
    if (known !== undefined) return known;
    const b = this.boxes;
    const c = Number.isNaN(b[i * 4]) ? null : cornersOfRing(this.ringOf(i));
    const placed =
      c && c.length === 4
        ? {
            id: this.ids[i]!,
            corners: c.map(([lon, lat]) => [mercX(lon), mercY(lat)] as const) as unknown as [
              Point,
              Point,
              Point,
              Point,
            ],
            box: [b[i * 4]!, b[i * 4 + 1]!, b[i * 4 + 2]!, b[i * 4 + 3]!] as const,
            outline: outlineOfRing(this.ringOf(i)),
          }
        : null;
    this.placedCache.set(i, placed);
    return placed;
  }

  /** The record `id` placed, if it is among the footprints and has corners. */
  protected placedOf(id: string): Placed | null {
    const i = this.ids.indexOf(id);
    return i < 0 ? null : this.placedAt(i);
  }

  /**
   * What `drawOrder` needs to pick from in the view: the first `max` records touching it in
   * the search's order, and the record `top` if it touches it (the same boxes, so the same pick).
   */
  private candidates(
    [x0, y0, x1, y1]: readonly [number, number, number, number],
    top: string | null,
    max: number,
  ): Placed[] {
    const b = this.boxes;
    const out: Placed[] = [];
    let taken = 0;
    let topSeen = top === null;
    for (let i = 0; i < this.ids.length; i++) {
      if (!(b[i * 4 + 2]! >= x0 && b[i * 4]! <= x1 && b[i * 4 + 3]! >= y0 && b[i * 4 + 1]! <= y1)) {
        continue;
      }
      const isTop = this.ids[i] === top;
      if (!isTop && taken >= max) continue;
      const p = this.placedAt(i);
      if (!p) continue;
      out.push(p);
      if (isTop) topSeen = true;
      else taken++;
      if (taken >= max && topSeen) break;
    }
    return out;
  }

  /** Forgets the pictures that were missing and draws again (asking for them anew). */
  retryMissing(): void {
    for (const [url, l] of this.images) if (l.state === 'missing') this.images.delete(url);
    this.redraw();
  }

  /** The record drawn above all others, if any. */
  get topId(): string | null {
    return this.top;
  }

  setTop(id: string | null): void {
    if (id === this.top) return;
    this.top = id;
    this.redraw();
  }

  setOpacity(opacity: number): void {
    this.opacity = Math.min(1, Math.max(0, opacity));
    const pane = this.paneEl();
    if (pane) pane.style.opacity = String(this.opacity);
  }

  override onAdd(map: L.Map): this {
    super.onAdd(map);
    this.setOpacity(this.opacity);
    return this;
  }

  private paneEl(): HTMLElement | undefined {
    return (this._map as L.Map | undefined)?.getPane(this.paneName);
  }

  /** The image for `url`: ready, or starting to load (a redraw follows its load). */
  private image(url: string): Loaded {
    const known = this.images.get(url);
    if (known) {
      // Most recently used last: the oldest are dropped first.
      this.images.delete(url);
      this.images.set(url, known);
      return known;
    }
    const img = new Image();
    img.decoding = 'async';
    const entry: Loaded = { state: 'loading', img };
    img.onload = () => {
      (entry as { state: string }).state = 'ready';
      this.scheduleRedraw();
    };
    img.onerror = () => {
      (entry as { state: string }).state = 'missing';
      this.scheduleRedraw();
    };
    img.src = url;
    this.images.set(url, entry);
    while (this.images.size > this.maxImages) {
      const oldest = this.images.keys().next().value as string;
      this.images.delete(oldest);
    }
    return entry;
  }

  /** One redraw for a burst of loads. */
  protected scheduleRedraw(): void {
    if (this.pending) return;
    this.pending = true;
    const run = () => {
      this.pending = false;
      this.redraw();
    };
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }

  /**
   * A pan at the same zoom keeps what is drawn, moved, and draws only the pictures that reach
   * into what came into view (pan-shift.ts). Off for the compare layer (it redraws on move).
   */
  protected shiftOnPan = true;
  /** The canvas as last drawn whole or shifted, and the view it was drawn for. */
  private previous: { view: ViewTransform; copy: HTMLCanvasElement; capped: boolean } | null = null;
  private shifting = false;

  override reset(): void {
    const canvas = this.canvases[0];
    if (this.shiftOnPan && canvas && this.view && canvas.width > 0 && this.previous) {
      const copy = this.previous.copy;
      copy.width = canvas.width;
      copy.height = canvas.height;
      copy.getContext('2d')?.drawImage(canvas, 0, 0);
      this.previous = { ...this.previous, view: this.view };
      this.shifting = true;
    }
    try {
      super.reset();
    } finally {
      this.shifting = false;
    }
  }

  protected override drawCanvas(_n: number, ctx: CanvasRenderingContext2D, view: ViewTransform) {
    const { scale, originX, originY } = view;
    const x0 = originX / scale;
    const y0 = originY / scale;
    const x1 = (originX + view.width) / scale;
    const y1 = (originY + view.height) / scale;
    // One more than the cap: whether the cap cut something (then the drawn set may change).
    const max = this.maxDrawn + 1;
    const view4 = [x0, y0, x1, y1] as const;
    const inView = drawOrder(this.candidates(view4, this.top, max), view4, this.top, max);
    const capped = inView.length - (inView.at(-1)?.id === this.top ? 1 : 0) > this.maxDrawn;
    if (capped) inView.shift();
    const prev = this.previous;
    const shift =
      this.shifting && prev && !prev.capped && !capped ? panShift(prev.view, view) : null;
    if (shift && prev) {
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(prev.copy, shift.dx * this.dpr, shift.dy * this.dpr);
      ctx.restore();
      // Only what came into view: the canvas minus the old one, moved.
      ctx.save();
      ctx.beginPath();
      ctx.rect(0, 0, view.width, view.height);
      ctx.rect(shift.dx, shift.dy, view.width, view.height);
      ctx.clip('evenodd');
    }
    let drawn = 0;
    let overviews = 0;
    for (const p of inView) {
      const [bx0, by0, bx1, by1] = p.box;
      const screen = [
        bx0 * scale - originX,
        by0 * scale - originY,
        bx1 * scale - originX,
        by1 * scale - originY,
      ] as const;
      const kept = shift !== null && insideShifted(screen, shift, view);
      const size = kept ? this.readySize(p, view) : this.drawPlaced(ctx, view, p);
      if (size === 0) continue;
      drawn++;
      if (size > QUICKLOOK_PIXELS.thumbnail) overviews++;
    }
    if (shift) ctx.restore();
    this.previous = {
      view,
      copy: prev?.copy ?? document.createElement('canvas'),
      capped,
    };
    this.drawn = drawn;
    this.canvases[0]?.setAttribute('data-drawn', String(drawn));
    this.canvases[0]?.setAttribute('data-overviews', String(overviews));
  }

  /** The width of the picture a draw of `p` would use now (0: none ready), drawing nothing. */
  private readySize(p: Placed, view: ViewTransform): number {
    const [bx0, by0, bx1, by1] = p.box;
    const pick = this.pick(
      p.id,
      Math.max(bx1 - bx0, by1 - by0) * view.scale > QUICKLOOK_PIXELS.thumbnail,
    );
    return pick ? pick.naturalWidth || QUICKLOOK_PIXELS.thumbnail : 0;
  }

  /**
   * Draws one record's picture warped onto its corners; returns the picture's width in pixels
   * (0: not loaded yet or missing, nothing drawn).
   */
  protected drawPlaced(ctx: CanvasRenderingContext2D, view: ViewTransform, p: Placed): number {
    const { scale, originX, originY } = view;
    const [bx0, by0, bx1, by1] = p.box;
    const sizePx = Math.max(bx1 - bx0, by1 - by0) * scale;
    const pick = this.pick(p.id, sizePx > QUICKLOOK_PIXELS.thumbnail);
    if (!pick) return 0;
    const corners = p.corners.map(
      ([x, y]) => [x * scale - originX, y * scale - originY] as const,
    ) as unknown as [Point, Point, Point, Point];
    const w = pick.naturalWidth || QUICKLOOK_PIXELS.thumbnail;
    const h = pick.naturalHeight || QUICKLOOK_PIXELS.thumbnail;
    ctx.save();
    clipToOutline(ctx, p.outline, view);
    drawWarped(ctx, pick, w, h, corners);
    ctx.restore();
    return w;
  }

  /** The picture to draw now: the overview when wanted and loaded, else the thumbnail. */
  private pick(id: string, wantOverview: boolean): HTMLImageElement | null {
    const thumbUrl = this.urlOf(id, 'thumbnail');
    if (wantOverview) {
      const url = this.urlOf(id, 'overview');
      const o = url ? this.image(url) : null;
      if (o?.state === 'ready') return o.img;
    }
    const t = thumbUrl ? this.image(thumbUrl) : null;
    return t?.state === 'ready' ? t.img : null;
  }
}

/**
 * Record i's lon/lat box (its ring: values[from..to), lon, lat pairs) projected into `boxes`:
 * x0 y0 x1 y1, minX NaN when it has no corners (an empty ring, or values that are not numbers).
 */
function projectedBox(
  values: ArrayLike<number>,
  from: number,
  to: number,
  boxes: Float64Array,
  i: number,
): void {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (let k = from; k + 1 < to; k += 2) {
    const lon = values[k]!;
    const lat = values[k + 1]!;
    if (lon < w) w = lon;
    if (lon > e) e = lon;
    if (lat < s) s = lat;
    if (lat > n) n = lat;
  }
  const none = !(w <= e && s <= n && Number.isFinite(w + e + s + n));
  boxes[i * 4] = none ? NaN : mercX(w);
  boxes[i * 4 + 1] = mercY(n);
  boxes[i * 4 + 2] = mercX(e);
  boxes[i * 4 + 3] = mercY(s);
}

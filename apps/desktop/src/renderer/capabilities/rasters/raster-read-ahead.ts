/**
 * Read-ahead of an offline raster's source tiles, the way a map engine keeps a pan or a zoom
 * from reaching tiles nobody decoded yet: after each move the page tells the worker its view,
 * and while no tile is being painted the worker decodes, one at a time, the source tiles the
 * next move is likely to need: the ring around the view at the level it is drawn from (nearest
 * the centre first), then the view at the level a zoom in draws from, then at a zoom out's. A new
 * view replaces the plan (what the old one had not reached is never decoded). Decoded tiles go to
 * the engine's byte-bounded cache (raster-source.ts TileCache), where a zoom out or back reuses
 * them; a plan is capped to a share of that budget so it never evicts what is on screen.
 */
import { mercY } from '../../map/mercator';
import { levelForTile, pixelOfLonLat, type RasterPlacement } from './raster-grid';

/** What the map shows: its tile zoom and its bounds [west, south, east, north] in degrees. */
export interface ViewArea {
  readonly z: number;
  readonly bounds: readonly [number, number, number, number];
}

/** A view the page sent: a whole zoom in the map's range, finite bounds in order. */
export function isViewArea(v: unknown): v is ViewArea {
  const a = v as Partial<ViewArea> | null;
  if (!a || !Number.isInteger(a.z) || a.z! < 0 || a.z! > 30) return false;
  const b = a.bounds;
  return (
    Array.isArray(b) &&
    b.length === 4 &&
    b.every((x) => Number.isFinite(x)) &&
    b[0]! <= b[2]! &&
    b[1]! <= b[3]!
  );
}

/** A source tile of the stored file: its level (0 full resolution, then overviews) and place. */
export interface SourceTile {
  readonly level: number;
  readonly tx: number;
  readonly ty: number;
}

/** A level's size and tile size (RasterInfo's levels). */
interface LevelTiles {
  readonly width: number;
  readonly height: number;
  readonly tileWidth: number;
  readonly tileHeight: number;
}

/** How a plan ended: what it decoded, and whether a newer view replaced it first. */
export interface ReadAheadResult {
  readonly planned: readonly SourceTile[];
  readonly decoded: readonly SourceTile[];
  readonly cancelled: boolean;
}

/** The level the map draws from at zoom z, around latitude `lat`. */
function levelAt(placement: RasterPlacement, z: number, lat: number): number {
  const y = Math.floor(mercY(lat) * 2 ** z);
  return levelForTile(placement, { z, x: 0, y, size: 256 });
}

/**
 * The source tiles of `level` under lon/lat bounds, grown by `ring` tiles on every side,
 * nearest the bounds' centre first. The bounds' corners, edge middles and centre are projected
 * (the UTM grid is turned a little against the map's), clamped to the level.
 */
function tilesUnder(
  placement: RasterPlacement,
  levels: readonly LevelTiles[],
  level: number,
  [w, s, e, n]: ViewArea['bounds'],
  ring: number,
): SourceTile[] {
  const project = pixelOfLonLat(placement, level);
  const at = new Float64Array(2);
  let [c0, r0, c1, r1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const lon of [w, (w + e) / 2, e])
    for (const lat of [s, (s + n) / 2, n]) {
      project(lon, lat, at);
      c0 = Math.min(c0, at[0]!);
      c1 = Math.max(c1, at[0]!);
      r0 = Math.min(r0, at[1]!);
      r1 = Math.max(r1, at[1]!);
    }
  const l = levels[level]!;
  const across = Math.ceil(l.width / l.tileWidth);
  const down = Math.ceil(l.height / l.tileHeight);
  const tx0 = Math.max(0, Math.floor(c0 / l.tileWidth) - ring);
  const tx1 = Math.min(across - 1, Math.floor(c1 / l.tileWidth) + ring);
  const ty0 = Math.max(0, Math.floor(r0 / l.tileHeight) - ring);
  const ty1 = Math.min(down - 1, Math.floor(r1 / l.tileHeight) + ring);
  const cx = (c0 + c1) / 2 / l.tileWidth;
  const cy = (r0 + r1) / 2 / l.tileHeight;
  const out: (SourceTile & { d: number })[] = [];
  for (let ty = ty0; ty <= ty1; ty++)
    for (let tx = tx0; tx <= tx1; tx++)
      out.push({ level, tx, ty, d: Math.hypot(tx + 0.5 - cx, ty + 0.5 - cy) });
  return out.sort((a, b) => a.d - b.d).map(({ level: lv, tx, ty }) => ({ level: lv, tx, ty }));
}

/**
 * The source tiles to decode ahead of `view`, in order, at most `maxTiles`: the ring around the
 * view at its level, the view at a zoom in's level, then a zoom out's (each when it differs).
 */
export function readAheadPlan(
  placement: RasterPlacement,
  levels: readonly LevelTiles[],
  view: ViewArea,
  maxTiles: number,
): SourceTile[] {
  const lat = (view.bounds[1] + view.bounds[3]) / 2;
  const here = levelAt(placement, view.z, lat);
  const zoomIn = levelAt(placement, view.z + 1, lat);
  const zoomOut = levelAt(placement, view.z - 1, lat);
  const steps = [tilesUnder(placement, levels, here, view.bounds, 1)];
  if (zoomIn !== here) steps.push(tilesUnder(placement, levels, zoomIn, view.bounds, 0));
  if (zoomOut !== here) steps.push(tilesUnder(placement, levels, zoomOut, view.bounds, 1));
  return steps.flat().slice(0, Math.max(0, maxTiles));
}

/**
 * Runs plans at low priority: a plan's next tile waits while any foreground work (a tile being
 * painted, a reading) runs, then a turn of the event loop (requests already queued go first).
 * One plan per raster; a newer one cancels the older at its next tile.
 */
export class ReadAhead {
  private busy = 0;
  private waiting: (() => void)[] = [];
  private readonly generation = new Map<string, number>();

  /** Runs foreground work: plans pause until it (and any other) is done. */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work();
    } finally {
      this.busy--;
      if (this.busy === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /** Resolves once no foreground work runs, one turn of the event loop after it ended. */
  private async idle(): Promise<void> {
    for (;;) {
      if (this.busy > 0) await new Promise<void>((wake) => this.waiting.push(wake));
      await new Promise<void>((turn) => setTimeout(turn, 0));
      if (this.busy === 0) return;
    }
  }

  /**
   * Decodes `plan` for raster `id`, skipping tiles already decoded, until done or replaced by a
   * newer plan (or `cancel`) for the same raster. A tile that fails is skipped (the page's own
   * request for it reports the error).
   */
  async run(
    id: string,
    plan: readonly SourceTile[],
    isDecoded: (t: SourceTile) => boolean,
    decode: (t: SourceTile) => Promise<unknown>,
  ): Promise<ReadAheadResult> {
    const gen = (this.generation.get(id) ?? 0) + 1;
    this.generation.set(id, gen);
    const decoded: SourceTile[] = [];
    for (const t of plan) {
      await this.idle();
      if (this.generation.get(id) !== gen) return { planned: plan, decoded, cancelled: true };
      if (isDecoded(t)) continue;
      try {
        await decode(t);
        decoded.push(t);
      } catch {
        // Skipped: not the read-ahead's to report.
      }
    }
    return { planned: plan, decoded, cancelled: false };
  }

  /** Stops raster `id`'s plan at its next tile (the raster closed). */
  cancel(id: string): void {
    this.generation.set(id, (this.generation.get(id) ?? 0) + 1);
  }
}

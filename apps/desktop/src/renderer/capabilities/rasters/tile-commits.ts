/**
 * Raster tiles the worker has finished, put on their canvases in animation frames, a budget of
 * the page's time at most per frame, as map engines commit tiles: a burst of tiles arriving
 * during a drag then costs each frame a few milliseconds (the rest spread over the next frames),
 * never a dropped frame. The tiles nearest the view's centre as it is when the frame comes go
 * first; a tile no longer wanted when its turn comes (scrolled away, asked again with another
 * style, its layer removed) is dropped and what it holds freed. One queue for the app, so two
 * raster layers (the compare swipe) share one budget.
 */

/** A finished tile waiting for its frame. */
export interface TileCommit {
  /** Lower goes first: how far the tile is from the view's centre now (tiles). */
  priority(): number;
  /** Whether the tile is no longer wanted (its canvas unloaded, repainted, its layer gone). */
  stale(): boolean;
  /** Puts the tile on its canvas (and tells its layer it is ready). */
  commit(): void;
  /** Frees what a dropped tile holds (its bitmap). */
  drop(): void;
}

/** Animation frames and the time (the browser's; a test passes its own). */
export interface FrameClock {
  requestFrame(callback: () => void): void;
  now(): number;
}

const browserFrames: FrameClock = {
  requestFrame: (callback) => requestAnimationFrame(() => callback()),
  now: () => performance.now(),
};

/** The page's time a frame may give to putting tiles on (ms): a fifth of a 60 Hz frame. */
export const COMMIT_BUDGET_MS = 3;
/** Tiles a frame at most, whatever their time: each also costs the compositor a layer update. */
export const COMMIT_MAX_TILES = 8;

export class TileCommitQueue {
  private pending: TileCommit[] = [];
  private scheduled = false;

  constructor(
    private readonly clock: FrameClock = browserFrames,
    private readonly budgetMs = COMMIT_BUDGET_MS,
    private readonly maxTiles = COMMIT_MAX_TILES,
  ) {}

  /** Tiles waiting for a frame. */
  get size(): number {
    return this.pending.length;
  }

  add(tile: TileCommit): void {
    this.pending.push(tile);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    this.clock.requestFrame(() => {
      this.scheduled = false;
      this.frame();
      this.schedule();
    });
  }

  /**
   * One frame's share: stale tiles dropped, then the nearest first until the budget or the
   * tile cap is spent (at least one a frame, so a slow machine still gets every tile). Returns
   * how many were committed.
   */
  frame(): number {
    const start = this.clock.now();
    const live: { tile: TileCommit; priority: number }[] = [];
    for (const tile of this.pending)
      if (tile.stale()) tile.drop();
      else live.push({ tile, priority: tile.priority() });
    live.sort((a, b) => a.priority - b.priority);
    let committed = 0;
    while (committed < live.length && committed < this.maxTiles) {
      if (committed > 0 && this.clock.now() - start >= this.budgetMs) break;
      live[committed]!.tile.commit();
      committed++;
    }
    this.pending = live.slice(committed).map((l) => l.tile);
    return committed;
  }
}

let shared: TileCommitQueue | null = null;

/** The app's queue (every raster layer's tiles share its budget). */
export function tileCommits(): TileCommitQueue {
  shared ??= new TileCommitQueue();
  return shared;
}

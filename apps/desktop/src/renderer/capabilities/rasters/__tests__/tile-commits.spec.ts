import { describe, expect, it } from 'vitest';
import { TileCommitQueue, type FrameClock, type TileCommit } from '../tile-commits';

/** Frames run by the test, and a clock that each commit moves on by its cost. */
function manualFrames() {
  const waiting: (() => void)[] = [];
  const clock: FrameClock & { t: number } = {
    t: 0,
    requestFrame: (callback) => waiting.push(callback),
    now: () => clock.t,
  };
  return {
    clock,
    /** Frames asked for and not yet run. */
    get asked() {
      return waiting.length;
    },
    /** Runs the frame asked for (exactly one must be). */
    run(): void {
      expect(waiting.length).toBe(1);
      waiting.shift()!();
    },
  };
}

/** A tile at `distance` from the centre that costs `cost` ms of the page's time to commit. */
function tile(
  log: string[],
  name: string,
  distance: number,
  opts: { cost?: number; clock?: { t: number }; stale?: () => boolean } = {},
): TileCommit & { dropped: boolean } {
  const t = {
    dropped: false,
    priority: () => distance,
    stale: opts.stale ?? (() => false),
    commit: () => {
      if (opts.clock) opts.clock.t += opts.cost ?? 0;
      log.push(name);
    },
    drop: () => {
      t.dropped = true;
    },
  };
  return t;
}

describe('tile commits: a budget a frame, nearest first, stale ones dropped', () => {
  it('commits in animation frames, never when a tile arrives', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 8);
    const log: string[] = [];
    q.add(tile(log, 'a', 1));
    q.add(tile(log, 'b', 2));
    expect(log).toEqual([]);
    expect(f.asked).toBe(1);
    f.run();
    expect(log).toEqual(['a', 'b']);
    // Nothing left: no frame asked for.
    expect(f.asked).toBe(0);
    expect(q.size).toBe(0);
  });

  it('stops a frame once its time budget is spent, and goes on in the next frames', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 100);
    const log: string[] = [];
    // Each tile costs 1 ms: three fit in a 3 ms budget (the third starts at 2 ms).
    for (let i = 0; i < 7; i++) q.add(tile(log, `t${i}`, i, { cost: 1, clock: f.clock }));
    f.run();
    expect(log).toEqual(['t0', 't1', 't2']);
    f.run();
    expect(log).toHaveLength(6);
    f.run();
    expect(log).toHaveLength(7);
    expect(f.asked).toBe(0);
  });

  it('caps the tiles of a frame however cheap they are', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 4);
    const log: string[] = [];
    for (let i = 0; i < 10; i++) q.add(tile(log, `t${i}`, i));
    f.run();
    expect(log).toHaveLength(4);
    f.run();
    expect(log).toHaveLength(8);
    f.run();
    expect(log).toHaveLength(10);
  });

  it('commits at least one tile a frame, even one slower than the budget', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 8);
    const log: string[] = [];
    q.add(tile(log, 'slow', 0, { cost: 10, clock: f.clock }));
    q.add(tile(log, 'next', 1, { cost: 10, clock: f.clock }));
    f.run();
    expect(log).toEqual(['slow']);
    f.run();
    expect(log).toEqual(['slow', 'next']);
  });

  it('puts the tiles nearest the view centre first, as the view is when the frame comes', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 2);
    const log: string[] = [];
    let centre = 0;
    // Tiles along a row, arriving in the order the worker finished them.
    for (const x of [5, 0, 3, 1, 4, 2])
      q.add({ ...tile(log, `x${x}`, 0), priority: () => Math.abs(x - centre) });
    f.run();
    expect(log).toEqual(['x0', 'x1']);
    // The view moved to x = 5 before the next frame: its tiles go first.
    centre = 5;
    f.run();
    expect(log).toEqual(['x0', 'x1', 'x5', 'x4']);
    f.run();
    expect(log).toEqual(['x0', 'x1', 'x5', 'x4', 'x3', 'x2']);
  });

  it('drops the tiles no longer wanted when their frame comes, freeing what they hold', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 8);
    const log: string[] = [];
    let scrolledAway = false;
    const kept = tile(log, 'kept', 1);
    const gone = tile(log, 'gone', 0, { stale: () => scrolledAway });
    q.add(kept);
    q.add(gone);
    scrolledAway = true;
    f.run();
    expect(log).toEqual(['kept']);
    expect(gone.dropped).toBe(true);
    expect(kept.dropped).toBe(false);
    // A dropped tile takes no place in the frame's cap.
    const g = manualFrames();
    const q2 = new TileCommitQueue(g.clock, 3, 1);
    const log2: string[] = [];
    q2.add(tile(log2, 'stale', 0, { stale: () => true }));
    q2.add(tile(log2, 'live', 1));
    g.run();
    expect(log2).toEqual(['live']);
    expect(q2.size).toBe(0);
  });

  it('checks staleness again in later frames (a tile waiting may go stale)', () => {
    const f = manualFrames();
    const q = new TileCommitQueue(f.clock, 3, 1);
    const log: string[] = [];
    let layerRemoved = false;
    const a = tile(log, 'a', 0);
    const b = tile(log, 'b', 1, { stale: () => layerRemoved });
    q.add(a);
    q.add(b);
    f.run();
    expect(log).toEqual(['a']);
    layerRemoved = true;
    f.run();
    expect(log).toEqual(['a']);
    expect(b.dropped).toBe(true);
    expect(f.asked).toBe(0);
  });
});

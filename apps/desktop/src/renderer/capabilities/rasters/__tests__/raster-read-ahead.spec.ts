import { bufferSource, type RangeSource } from '@eo/geotiff';
import { beforeAll, describe, expect, it } from 'vitest';
import { siteRasterBytes, type SiteRaster } from '../../../../shared/__tests__/site-raster';
import { mercX, mercY } from '../../../map/mercator';
import { RasterEngine } from '../raster-engine';
import { levelForTile, type MapTile } from '../raster-grid';
import { ReadAhead, readAheadPlan, type SourceTile, type ViewArea } from '../raster-read-ahead';
import { TileCache } from '../raster-source';
import type { RasterStyle } from '../raster-style';

/** A source over the bytes that counts its reads, and can hold them until released. */
function heldSource(bytes: Uint8Array) {
  const inner = bufferSource(bytes);
  let release: (() => void) | null = null;
  let held: Promise<void> | null = null;
  let firstHeld: () => void = () => undefined;
  const s = {
    reads: 0,
    size: inner.size,
    /** Holds every read from now on; resolves when the first one is held. */
    hold(): Promise<void> {
      held = new Promise<void>((r) => (release = r));
      return new Promise<void>((r) => (firstHeld = r));
    },
    release(): void {
      held = null;
      release?.();
    },
    async read(offset: number, length: number): Promise<Uint8Array> {
      s.reads++;
      if (held) {
        firstHeld();
        await held;
      }
      return inner.read(offset, length);
    },
  };
  return s satisfies RangeSource;
}

let bytes: Uint8Array;
let site: SiteRaster;
/** 4 x 4 tiles at full resolution, 2 x 2 and 1 in the overviews. */
const SIDE = 1024;

beforeAll(async () => {
  const made = await siteRasterBytes({ width: SIDE, height: SIDE, tileSize: 256 });
  bytes = made.bytes;
  site = made.site;
});

/** The map's view over full-resolution pixels [c0, r0]-[c1, r1] at zoom z. */
function viewOver(c0: number, r0: number, c1: number, r1: number, z: number): ViewArea {
  const [w, n] = site.lonLatOf(c0, r0);
  const [e, s] = site.lonLatOf(c1, r1);
  return { z, bounds: [w, s, e, n] };
}

/** How many bytes differ (the lengths too). */
function differing(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

const key = (t: SourceTile) => `${t.level}/${t.tx}/${t.ty}`;

/** The map tile over a full-resolution pixel at zoom z. */
function mapTileOver(col: number, row: number, z: number): MapTile {
  const [lon, lat] = site.lonLatOf(col, row);
  const n = 256 * 2 ** z;
  return {
    z,
    x: Math.floor((mercX(lon) * n) / 256),
    y: Math.floor((mercY(lat) * n) / 256),
    size: 256,
  };
}

const STYLE: RasterStyle = {
  kind: 'bands',
  bands: [3, 2, 1],
  stretch: [
    [0, 5000],
    [0, 3000],
    [0, 3000],
  ],
};

describe('the decoded tiles cache', () => {
  it('evicts the least recently used entries once its bytes pass the budget', () => {
    const cache = new TileCache<{ bytes: number }>(100);
    cache.set('a', { bytes: 40 });
    cache.set('b', { bytes: 40 });
    expect(cache.get('a')).toBeDefined(); // now b is the oldest
    cache.set('c', { bytes: 40 });
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a') && cache.has('c')).toBe(true);
    expect(cache.size).toBe(80);
    // `has` does not refresh: a stays the oldest and goes next.
    cache.has('a');
    cache.set('d', { bytes: 30 });
    expect([cache.has('a'), cache.has('c'), cache.has('d')]).toEqual([false, true, true]);
    expect(cache.size).toBe(70);
    // One entry larger than the budget is kept alone (the tile on screen is never refused).
    cache.set('huge', { bytes: 500 });
    expect([cache.has('c'), cache.has('d'), cache.has('huge')]).toEqual([false, false, true]);
    expect(cache.size).toBe(500);
  });
});

describe('the read-ahead plan', () => {
  it('rings the view at its level, nearest the centre first, then a zoom in and out, capped', async () => {
    const engine = new RasterEngine();
    const info = await engine.open('site', bufferSource(bytes));
    // Zoom 12 draws from an overview, zoom 13 from a finer level: a zoom in is planned too.
    const view = viewOver(450, 450, 575, 550, 12);
    const here = levelForTile(info.placement, mapTileOver(512, 512, 12));
    const finer = levelForTile(info.placement, mapTileOver(512, 512, 13));
    expect(finer).toBeLessThan(here);
    const plan = readAheadPlan(info.placement, info.levels, view, 100);
    const levels = plan.map((t) => t.level);
    // The view's own level first, then the zoom in's.
    expect(levels[0]).toBe(here);
    expect(levels.indexOf(finer)).toBeGreaterThan(levels.lastIndexOf(here));
    // Every tile of the view's level is there (a one-tile ring around the centre covers it).
    const l = info.levels[here]!;
    const across = Math.ceil(l.width / l.tileWidth);
    expect(plan.filter((t) => t.level === here).length).toBe(across * across);
    // The finest level's first tile is the one under the view's centre (pixel 512 at level 0).
    const first = plan.find((t) => t.level === finer)!;
    const scale = 2 ** finer;
    expect([first.tx, first.ty]).toEqual([
      Math.floor(512 / scale / info.levels[finer]!.tileWidth),
      Math.floor(500 / scale / info.levels[finer]!.tileHeight),
    ]);
    expect(new Set(plan.map(key)).size).toBe(plan.length);
    expect(readAheadPlan(info.placement, info.levels, view, 3)).toEqual(plan.slice(0, 3));
    // A view off the raster plans nothing.
    expect(
      readAheadPlan(info.placement, info.levels, { z: 12, bounds: [100, 10, 101, 11] }, 100),
    ).toEqual([]);
    engine.close('site');
  });
});

describe('reading ahead in the engine', () => {
  it('decodes ahead of the view; tiles then paint without a read, the same pixels as cold', async () => {
    const cold = new RasterEngine();
    await cold.open('site', bufferSource(bytes));
    const source = heldSource(bytes);
    const warm = new RasterEngine();
    await warm.open('site', source);
    // The view at native resolution over the top-left; the next pan goes east, the zoom out.
    const view = viewOver(50, 50, 350, 250, 17);
    const done = await warm.readAhead('site', view);
    expect(done.cancelled).toBe(false);
    expect(done.decoded.length).toBeGreaterThan(0);
    const reads = source.reads;
    // A pan east by the view's width, and a zoom out: every tile painted from decoded tiles.
    for (const tile of [mapTileOver(450, 150, 17), mapTileOver(200, 150, 16)]) {
      const a = await cold.renderTile('site', tile, STYLE);
      const b = await warm.renderTile('site', tile, STYLE);
      expect(a).not.toBe(null);
      // Compared here, not by toEqual: a deep equality of 262,144 bytes takes seconds.
      expect(differing(a!, b!)).toBe(0);
    }
    expect(source.reads).toBe(reads);
    cold.close('site');
    warm.close('site');
  });

  it('stops a plan when the view moves away: what it had not reached is never decoded', async () => {
    const source = heldSource(bytes);
    const engine = new RasterEngine();
    await engine.open('site', source);
    const a = viewOver(50, 50, 200, 150, 17); // top-left
    const b = viewOver(850, 850, 950, 950, 17); // bottom-right
    const held = source.hold();
    const first = engine.readAhead('site', a);
    await held; // A's first tile is being read
    const second = engine.readAhead('site', b);
    source.release();
    const [ra, rb] = await Promise.all([first, second]);
    expect(ra.cancelled).toBe(true);
    expect(ra.decoded.map(key)).toEqual([key(ra.planned[0]!)]);
    expect(rb.cancelled).toBe(false);
    const inB = new Set(rb.planned.map(key));
    const notReached = ra.planned.slice(1).filter((t) => !inB.has(key(t)));
    expect(notReached.length).toBeGreaterThan(0);
    for (const t of notReached) expect(engine.isDecoded('site', t)).toBe(false);
    for (const t of rb.planned) expect(engine.isDecoded('site', t)).toBe(true);
    engine.close('site');
  });

  it('stops when a move begins: nothing more is decoded ahead until the next view', async () => {
    const source = heldSource(bytes);
    const engine = new RasterEngine();
    await engine.open('site', source);
    const held = source.hold();
    const ahead = engine.readAhead('site', viewOver(50, 50, 200, 150, 17));
    await held; // its first tile is being read
    engine.stopReadAhead('site');
    source.release();
    const r = await ahead;
    expect(r.cancelled).toBe(true);
    expect(r.decoded.map(key)).toEqual([key(r.planned[0]!)]);
    expect(r.planned.length).toBeGreaterThan(1);
    for (const t of r.planned.slice(1)) expect(engine.isDecoded('site', t)).toBe(false);
    engine.close('site');
  });
});

describe('read-ahead priority', () => {
  it('decodes nothing while foreground work runs, and goes on once it is done', async () => {
    const ahead = new ReadAhead();
    let finish: () => void = () => undefined;
    const work = ahead.foreground(() => new Promise<void>((r) => (finish = r)));
    const decoded: string[] = [];
    const plan: SourceTile[] = [
      { level: 0, tx: 0, ty: 0 },
      { level: 0, tx: 1, ty: 0 },
    ];
    const run = ahead.run(
      'r',
      plan,
      () => false,
      (t) => {
        decoded.push(key(t));
        return Promise.resolve();
      },
    );
    // Many turns of the event loop: the plan waits on the foreground, not on a clock.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
    expect(decoded).toEqual([]);
    finish();
    await work;
    expect((await run).decoded.map(key)).toEqual(['0/0/0', '0/1/0']);
    expect(decoded).toEqual(['0/0/0', '0/1/0']);
  });
});

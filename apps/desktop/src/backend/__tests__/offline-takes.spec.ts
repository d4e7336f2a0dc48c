import type { OfflineProgress, OfflineRaster } from '@eo/sync';
import { describe, expect, it } from 'vitest';
import { makeOfflineTakes, type OfflineTakesOptions } from '../offline-takes';

type Take = OfflineTakesOptions['offline']['take'];

/** A take that reports what the test says, then ends as the test says. */
function controlledTake() {
  const calls: { request: Parameters<Take>[0]; options: Parameters<Take>[1] }[] = [];
  let finish!: (error?: Error) => void;
  const take: Take = (request, options) => {
    calls.push({ request, options });
    return new Promise((resolve, reject) => {
      finish = (error) => (error ? reject(error) : resolve({} as Awaited<ReturnType<Take>>));
      options.signal?.addEventListener('abort', () => reject(new Error('aborted')));
    });
  };
  return { take, calls, finish: (e?: Error) => finish(e) };
}

const input = {
  scene: { kind: 'catalog' as const, id: 'rec-1' },
  area: { kind: 'around' as const, lon: 6.6, lat: 46.5, radiusM: 1000 },
  resolution: 'native' as const,
};
const flush = () => new Promise((r) => setImmediate(r));

function takesWith(take: Take, connected = true) {
  return makeOfflineTakes({
    offline: { take },
    connection: () => (connected ? { url: 'http://127.0.0.1:1', client: {} as never } : null),
    noService: () => new Error('no service: connect in Settings'),
    settings: () => ({ imageryBudgetMb: 100 }),
  });
}

describe('taking sites offline from the app', () => {
  it('runs the take over the connection with the budget, its steps shown, then stored', async () => {
    const c = controlledTake();
    const takes = takesWith(c.take);
    const { key } = takes.take(input);
    expect(c.calls).toHaveLength(1);
    expect(c.calls[0]!.request.area.label).toMatch(/1000 m|1 km/);
    expect(c.calls[0]!.options).toMatchObject({
      serviceUrl: 'http://127.0.0.1:1',
      budgetBytes: 100 * 2 ** 20,
    });
    // The same site again while it runs: the same take, not a second one.
    expect(takes.take(input).key).toBe(key);
    expect(c.calls).toHaveLength(1);
    const report = c.calls[0]!.options.onProgress!;
    report({
      phase: 'planned',
      level: 0,
      pixelSize: 10,
      width: 200,
      height: 200,
      tiles: 4,
      bytes: 800_000,
    } as OfflineProgress);
    report({ phase: 'tiles', done: 1, total: 4, bytes: 200_000 });
    expect(takes.list()[0]).toMatchObject({
      phase: 'tiles',
      done: 1,
      total: 4,
      bytes: 200_000,
      plannedBytes: 800_000,
    });
    c.finish();
    await flush();
    expect(takes.list()[0]).toMatchObject({ phase: 'stored', error: null });
  });

  it('cancels a running take; a failure says why', async () => {
    const c = controlledTake();
    const takes = takesWith(c.take);
    const { key } = takes.take(input);
    expect(takes.cancel(key)).toBe(true);
    await flush();
    expect(takes.list()[0]).toMatchObject({ phase: 'cancelled' });
    expect(takes.cancel(key)).toBe(false);
    takes.take(input);
    c.finish(new Error('the scene is not in the catalog'));
    await flush();
    expect(takes.list()[0]).toMatchObject({
      phase: 'failed',
      error: 'the scene is not in the catalog',
    });
  });

  it('pauses a take keeping what it fetched; resume takes the row up with the same request', async () => {
    const c = controlledTake();
    const removed: string[] = [];
    const rows = new Map<string, OfflineRaster>();
    const takes = makeOfflineTakes({
      offline: {
        take: c.take,
        get: (id) => rows.get(id) ?? null,
        remove: (id) => removed.push(id),
      },
      connection: () => ({ url: 'http://127.0.0.1:1', client: {} as never }),
      noService: () => new Error('no service'),
      settings: () => ({ imageryBudgetMb: 100 }),
    });
    const shape = {
      kind: 'shape' as const,
      label: 'AOI Field 7',
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [6, 46],
            [6.1, 46],
            [6.1, 46.1],
            [6, 46],
          ] as [number, number][],
        ],
      },
    };
    const { key } = takes.take({
      scene: { kind: 'aoi_asset', id: 'asset-3', aoiId: 'aoi-7' },
      area: shape,
      resolution: { metres: 20 },
    });
    c.calls[0]!.options.onProgress!({ phase: 'requesting', rasterId: 'off_1' });
    expect(takes.pause(key)).toBe(true);
    await flush();
    expect(takes.list()[0]).toMatchObject({ phase: 'paused', rasterId: 'off_1', error: null });
    expect(removed).toEqual([]);
    // The row as sync keeps it (after a pause, or a quit): resumed as the same request.
    rows.set('off_1', {
      id: 'off_1',
      scene: { kind: 'aoi_asset', ref: 'asset-3', aoiId: 'aoi-7', sceneId: null },
      area: { geometry: shape.geometry, label: 'AOI Field 7' },
      resolution: '20m',
      state: 'fetching',
    } as unknown as OfflineRaster);
    expect(takes.resume('off_1').key).toBe(key);
    expect(c.calls[1]!.request).toEqual({
      scene: { kind: 'aoi_asset', id: 'asset-3', aoiId: 'aoi-7' },
      area: { geometry: shape.geometry, label: 'AOI Field 7' },
      resolution: { metres: 20 },
    });
    expect(takes.list()[0]).toMatchObject({ phase: 'requesting', rasterId: 'off_1' });
    // Cancel removes what it fetched.
    expect(takes.cancel(key)).toBe(true);
    await flush();
    expect(takes.list()[0]).toMatchObject({ phase: 'cancelled' });
    expect(removed).toEqual(['off_1']);
    expect(() => takes.resume('off_9')).toThrow(/no offline raster off_9/);
  });

  it("tells the connection's link meter what its raster reads took", async () => {
    const c = controlledTake();
    const samples: [number, number][] = [];
    let t = 1000;
    const takes = makeOfflineTakes({
      offline: { take: c.take },
      connection: () => ({
        url: 'http://127.0.0.1:1',
        client: {} as never,
        link: { transferred: (bytes, ms) => samples.push([bytes, ms]) },
      }),
      noService: () => new Error('no service'),
      settings: () => ({ imageryBudgetMb: 100 }),
      now: () => t,
    });
    takes.take(input);
    const report = c.calls[0]!.options.onProgress!;
    report({ phase: 'tiles', done: 1, total: 3, bytes: 100_000 });
    t += 2000;
    report({ phase: 'tiles', done: 3, total: 3, bytes: 600_000 });
    report({ phase: 'writing' });
    expect(samples).toEqual([[500_000, 2000]]);
    c.finish();
    await flush();
    expect(samples).toHaveLength(1);
  });

  it('without a connection, says so and starts nothing', () => {
    const c = controlledTake();
    expect(() => takesWith(c.take, false).take(input)).toThrow(/no service/);
    expect(c.calls).toHaveLength(0);
  });
});

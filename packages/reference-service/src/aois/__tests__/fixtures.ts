/**
 * Test fixtures for AOIs, visualizations and jobs: archive scenes with known footprints
 * around a 0.1° x 0.1° AOI at 10°E 45°N, and request helpers.
 */
import fs from 'node:fs';
import { AUTHALIC_RADIUS_M, type Polygon } from '@eo/domain';
import { expect } from 'vitest';
import { buildApp } from '../../app';
import { makeArchiveInserter } from '../../archive/repository';
import type { TestApp } from '../../testing/harness';

export const box = (w: number, s: number, e: number, n: number): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

/** The AOI every test uses unless it says otherwise. */
export const AOI_BOX = box(10, 45, 10.1, 45.1);

/** Geodesic area of a lon/lat box on the domain's authalic sphere (exact for a box). */
export function boxAreaSqM(w: number, s: number, e: number, n: number): number {
  const r = AUTHALIC_RADIUS_M;
  const rad = (d: number) => (d * Math.PI) / 180;
  return r * r * rad(e - w) * (Math.sin(rad(n)) - Math.sin(rad(s)));
}

export const SCENES = {
  /** Covers the whole AOI. */
  cover: {
    id: 'fx-aurora-cover-0501',
    sat: 'sat-aurora-1',
    at: '2024-05-01T10:15:00Z',
    geom: box(9.9, 44.9, 10.2, 45.2),
    cloud: 12,
  },
  /** Covers the eastern half of the AOI (10.05..10.1). */
  half: {
    id: 'fx-aurora-half-0601',
    sat: 'sat-aurora-1',
    at: '2024-06-01T10:15:00Z',
    geom: box(10.05, 44.9, 10.3, 45.2),
    cloud: 30,
  },
  /** Far from the AOI. */
  away: {
    id: 'fx-aurora-away-0701',
    sat: 'sat-aurora-1',
    at: '2024-07-01T10:15:00Z',
    geom: box(11, 46, 11.2, 46.2),
    cloud: 5,
  },
  /** Covers the AOI, later date (for change detection). */
  later: {
    id: 'fx-aurora-cover-0815',
    sat: 'sat-aurora-1',
    at: '2024-08-15T23:59:59Z',
    geom: box(9.9, 44.9, 10.2, 45.2),
    cloud: 0,
  },
  /** Another satellite's scene over the AOI. */
  kestrel: {
    id: 'fx-kestrel-cover-0502',
    sat: 'sat-kestrel-1',
    at: '2024-05-02T09:00:00Z',
    geom: box(9.95, 44.95, 10.15, 45.15),
    cloud: 8,
  },
} as const;

export function insertFixtureScenes(t: TestApp): void {
  const insert = makeArchiveInserter(t.app.ctx.sqlite);
  t.app.ctx.sqlite.transaction(() => {
    for (const s of Object.values(SCENES)) {
      insert(
        {
          id: s.id,
          type: 'Feature',
          collection: s.sat === 'sat-kestrel-1' ? 'col-kestrel-ortho' : 'col-aurora-l2a',
          stac_version: '1.0.0',
          geometry: s.geom,
          properties: { datetime: s.at, 'eo:cloud_cover': s.cloud },
        },
        s.sat,
      );
    }
  })();
}

export const aoiBody = (over: Record<string, unknown> = {}) => ({
  name: 'North field',
  description: 'Maize, irrigated',
  satellite_id: 'sat-aurora-1',
  provider: 'aurora-archive',
  project_id: 'prj-demo-crops',
  geometry: AOI_BOX,
  item_ids: [SCENES.cover.id, SCENES.half.id, SCENES.away.id],
  ...over,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export async function createAoi(
  t: TestApp,
  over: Record<string, unknown> = {},
  key?: string,
): Promise<Json> {
  const res = await t.call({ method: 'POST', url: '/v0/aois', payload: aoiBody(over), key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function listAssets(t: TestApp, aoiId: string): Promise<Json[]> {
  const res = await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?limit=1000` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().assets;
}

export async function getAoi(t: TestApp, aoiId: string): Promise<Json> {
  const res = await t.call({ method: 'GET', url: `/v0/aois?aoi_id=${aoiId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().aois[0];
}

/** Run exactly one queued worker step. */
export function step(t: TestApp): void {
  expect(t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 })).toBe(1);
}

/** Error detail paths of a 400. */
export function paths(res: { json(): Json }): string[] {
  return res.json().error.details.map((d: { path: string }) => d.path);
}

export const MICRO_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

/**
 * Simulate a crash and restart: close the app, build a new one on the same data folder (same
 * database, same queued steps) and return a TestApp over it, with the same keys.
 */
export async function restart(t: TestApp): Promise<TestApp> {
  await t.app.close();
  const app = await buildApp({
    dataDir: t.dataDir,
    logLevel: false,
    workerTickMs: 0,
    stepDelayMs: 0,
    validateResponses: true,
  });
  return {
    app,
    dataDir: t.dataDir,
    key: t.key,
    otherKey: t.otherKey,
    call({ key: k, headers, ...rest }) {
      const auth = k === null ? {} : { authorization: k ?? t.key };
      return app.inject({ ...rest, headers: { ...auth, ...(headers ?? {}) } });
    },
    async close() {
      await app.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows of a table matching a condition, straight from SQLite (to check exactly-once effects). */
export function count(t: TestApp, sql: string, ...args: unknown[]): number {
  return (t.app.ctx.sqlite.prepare(sql).get(...args) as { n: number }).n;
}

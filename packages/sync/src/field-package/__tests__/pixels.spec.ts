/**
 * `pixels`: a site's offline rasters (sites taken offline, `src/offline/`) go into a package in
 * parts and come out whole on the other laptop, stored with their row; without `pixels` they
 * stay home; a raster whose parts were changed is refused with nothing kept.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FieldPackageOptions } from '@eo/domain';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { openMirror } from '../../mirror/mirror';
import { ensureRastersDir } from '../../offline/raster-files';
import { makeOfflineRasterStore } from '../../offline/store';
import { RASTER_PART_BYTES } from '../pixels';
import { PackageError } from '../read';
import { syntheticMirror } from './synthetic';

const WORLD = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [-180, -90],
      [180, -90],
      [180, 90],
      [-180, 90],
      [-180, -90],
    ],
  ],
};

let dir: string;
let office: string;
let bytes: Buffer;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-package-pixels-'));
  office = syntheticMirror(dir, 'office');
  // A stored raster of cat-1: two parts and a bit (the file's bytes are what counts here).
  bytes = crypto.randomBytes(2 * RASTER_PART_BYTES + 4321);
  const db = openMirrorDatabase(office);
  try {
    const store = makeOfflineRasterStore(db.sqlite);
    store.create({
      id: 'off_site-1',
      scene_kind: 'catalog',
      scene_ref: 'cat-1',
      aoi_id: null,
      scene_id: 'cat-1',
      area_json: JSON.stringify(WORLD),
      area_label: 'the whole site',
      resolution: 'native',
      idempotency_key: 'k-1',
    });
    fs.writeFileSync(path.join(ensureRastersDir(office), 'off_site-1.tif'), bytes);
    store.update('off_site-1', {
      state: 'stored',
      mode: 'window',
      epsg: 32632,
      file: 'off_site-1.tif',
      bytes: bytes.length,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
  } finally {
    db.close();
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const options = (pixels: boolean) =>
  FieldPackageOptions.parse({ selection: { kind: 'area', area: WORLD }, pixels });

describe('offline rasters in a field package', () => {
  it('travel whole, in parts, with their row', async () => {
    const a = openMirror(office);
    const file = path.join(dir, 'with-pixels.gpkg');
    try {
      expect(a.packages.plan(options(true)).pixels).toEqual({
        asked: true,
        available: true,
        count: 1,
        bytes: bytes.length,
      });
      a.packages.write(options(true), file);
    } finally {
      a.close();
    }
    const parts = new Database(file, { readonly: true });
    expect(parts.prepare('SELECT count(*) FROM eo_raster_parts').pluck().get()).toBe(3);
    parts.close();

    const b = openMirror(path.join(dir, 'field', 'mirror.sqlite'));
    try {
      const report = await b.packages.import(file);
      expect(report.rasters).toEqual({ added: 1, updated: 0, kept: 0, unkept: 0 });
      const [raster] = b.offline.list();
      expect(raster).toMatchObject({
        id: 'off_site-1',
        state: 'stored',
        epsg: 32632,
        area: { label: 'the whole site' },
        bytes: bytes.length,
      });
      expect(fs.readFileSync(b.offline.file('off_site-1')!).equals(bytes)).toBe(true);
      // Taken in again: it is there already.
      expect((await b.packages.import(file)).rasters).toMatchObject({ added: 0, kept: 1 });
    } finally {
      b.close();
    }
  });

  it('stay home without pixels', () => {
    const a = openMirror(office);
    try {
      expect(a.packages.plan(options(false)).pixels).toMatchObject({ asked: false, count: 0 });
      const file = path.join(dir, 'without.gpkg');
      a.packages.write(options(false), file);
      const db = new Database(file, { readonly: true });
      expect(db.prepare('SELECT count(*) FROM eo_rasters').pluck().get()).toBe(0);
      db.close();
    } finally {
      a.close();
    }
  });

  it('a part changed on the way: refused, nothing kept', async () => {
    const file = path.join(dir, 'with-pixels.gpkg');
    const bad = path.join(dir, 'bad-pixels.gpkg');
    fs.copyFileSync(file, bad);
    const db = new Database(bad);
    db.prepare('UPDATE eo_raster_parts SET data = zeroblob(length(data)) WHERE part = 1').run();
    db.close();
    const c = openMirror(path.join(dir, 'other', 'mirror.sqlite'));
    try {
      const error = await c.packages.import(bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PackageError);
      expect((error as Error).message).toBe(
        'the package is damaged: the raster off_site-1 of cat-1 does not match its size and hash',
      );
      expect(c.offline.list()).toEqual([]);
      expect(c.counts().catalogs).toBe(0);
    } finally {
      c.close();
    }
  });
});

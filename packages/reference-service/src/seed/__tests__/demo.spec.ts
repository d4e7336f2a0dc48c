import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatalogRecord } from '@eo/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { sceneFeature, type ArchiveSceneRow } from '../../archive/repository';
import { openDatabase, type Database_ } from '../../db/client';
import { DEMO } from '@eo/fixtures';
import { seedDemo } from '../demo';
import { generateScenes } from '../scenes';

const CATALOG_KEYS = [
  'constellation',
  'created',
  'datetime',
  'eo:cloud_cover',
  'gsd',
  'proj:epsg',
  'sat:relative_orbit',
  'view:off_nadir',
  'view:satellite_look_angle',
  'view:sun_azimuth',
  'view:sun_elevation',
  'instruments',
  'platform',
  'proj:wkt2',
  'sat:orbit_state',
  'sci:doi',
  'updated',
  'proj:shape',
  'proj:transform',
];

const opened: Array<{ db: Database_; dir: string }> = [];
function freshDb(): Database_ {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-seed-test-'));
  const db = openDatabase(path.join(dir, 'eo.sqlite'));
  opened.push({ db, dir });
  return db;
}
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const count = (db: Database_, table: string) =>
  (db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('seedDemo', () => {
  it('seeds the archive and demo catalog records once, then changes nothing', () => {
    const db = freshDb();
    const now = Date.UTC(2025, 6, 1);
    const first = seedDemo(db.sqlite, { nowMs: now, scenes: 120 });
    expect(first.demoKey).toMatch(/^eok_/);
    expect(first).toMatchObject({ scenesAdded: 120, catalogAdded: 6 });
    expect(count(db, 'archive_scenes')).toBe(120);
    expect(count(db, 'archive_scenes_rtree')).toBe(120);
    expect(count(db, 'catalog_records')).toBe(6);
    const again = seedDemo(db.sqlite, { nowMs: now, scenes: 120 });
    expect(again).toEqual({ scenesAdded: 0, catalogAdded: 0 });
    expect(count(db, 'archive_scenes')).toBe(120);
  });

  it('stores scenes compactly and reads back exactly the generated features', () => {
    const db = freshDb();
    seedDemo(db.sqlite, { nowMs: Date.UTC(2025, 6, 1), scenes: 60 });
    const generated = [...generateScenes({ count: 60 })];
    const rows = db.sqlite.prepare('SELECT * FROM archive_scenes').all() as Array<
      ArchiveSceneRow & { feature_json: string }
    >;
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const g of generated) {
      const row = byId.get(g.feature.id)!;
      expect(row.satellite_id).toBe(g.satelliteId);
      const f = sceneFeature(row);
      expect({ ...f, properties: { ...f.properties } }).toEqual({
        ...g.feature,
        properties: { ...g.feature.properties },
      });
      // constants and assets are not stored per scene
      expect(row.feature_json).not.toContain('"assets"');
      expect(row.feature_json).not.toContain('"license"');
    }
  });

  it('tops a smaller archive up to the requested size with the same scenes', () => {
    const db = freshDb();
    seedDemo(db.sqlite, { nowMs: Date.UTC(2025, 6, 1), scenes: 40 });
    const r = seedDemo(db.sqlite, { nowMs: Date.UTC(2025, 6, 1), scenes: 100 });
    expect(r.demoKey).toBeUndefined();
    expect(r.scenesAdded).toBe(60);
    const ids = (db.sqlite.prepare('SELECT id FROM archive_scenes').all() as Array<{ id: string }>)
      .map((x) => x.id)
      .sort();
    expect(ids).toEqual([...generateScenes({ count: 100 })].map((s) => s.feature.id).sort());
    expect(count(db, 'catalog_records')).toBe(5);
  });

  it('makes demo catalog records with full STAC details (every 2.10 property key)', () => {
    const db = freshDb();
    const now = Date.UTC(2025, 6, 1);
    seedDemo(db.sqlite, { nowMs: now, scenes: 100 });
    const rows = db.sqlite
      .prepare('SELECT org_id, item_id, record_json FROM catalog_records ORDER BY id')
      .all() as Array<{ org_id: string; item_id: string; record_json: string }>;
    expect(rows).toHaveLength(5);
    const sceneIds = new Set([...generateScenes({ count: 100 })].map((s) => s.feature.id));
    for (const row of rows) {
      expect(row.org_id).toBe(DEMO.orgId);
      expect(sceneIds.has(row.item_id)).toBe(true);
      const rec = JSON.parse(row.record_json);
      expect(CatalogRecord.safeParse(rec).success).toBe(true);
      for (const k of CATALOG_KEYS) expect(rec.details.properties, k).toHaveProperty([k]);
      for (const k of ['assets', 'bbox', 'collection', 'geometry', 'id', 'links', 'properties'])
        expect(rec.details).toHaveProperty([k]);
      expect(rec.details.stac_version).toBe('1.0.0');
      expect(rec.details.properties['proj:wkt2']).toMatch(/^PROJCRS\["WGS 84 \/ UTM zone \d+[NS]"/);
      expect(rec.area).toBeGreaterThan(100);
      expect(rec.delivery_status).toBe('SUCCESSFUL');
      expect(Date.parse(rec.created_at)).toBeLessThanOrEqual(now);
      expect(Date.parse(rec.created_at)).toBeGreaterThan(
        Date.parse(rec.details.properties.datetime),
      );
    }
  });
});

/**
 * A GeoPackage of several layers written into a file (what a field package is made of): GDAL's
 * validator finds nothing wrong, `ogrinfo` lists each layer with its declared geometry type
 * and count, the R-tree answers a spatial filter, pictures are related to their footprints,
 * and a table under our own extension stays out of the layer list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Polygon } from '@eo/domain';
import { gpkgProblems, ogrLayers } from '../../testing/gdal';
import type { ExportFeature } from '../feature';
import { makeGeoPackageWriter, toGeoPackage } from '../geopackage';
import { createLayerSchema, schemaOf } from '../gpkg-schema';

const square = (x: number, y = 0): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + 1, y],
      [x + 1, y + 1],
      [x, y + 1],
      [x, y],
    ],
  ],
});
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let dir: string;
let file: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-formats-gpkg-'));
  file = path.join(dir, 'site.gpkg');
  const db = new Database(file);
  const gpkg = makeGeoPackageWriter(db);
  const footprints: ExportFeature[] = Array.from({ length: 30 }, (_, i) => ({
    geometry: square(i * 2),
    properties: { id: `rec-${i}`, 'eo:cloud_cover': i * 1.5, gsd: i, ordered: i % 2 === 0 },
  }));
  // Streamed: the schema from a first pass, the rows from a second.
  const collect = createLayerSchema();
  for (const f of footprints) collect.add(f);
  gpkg.featureLayer('catalog_footprints', collect.schema(), footprints.values());
  const areas: ExportFeature[] = [
    { geometry: square(100), properties: { name: 'North' } },
    { geometry: { type: 'MultiPolygon', coordinates: [square(5, 5).coordinates] }, properties: {} },
  ];
  gpkg.featureLayer('aois', schemaOf(areas), areas);
  gpkg.mediaTable(
    'quicklooks',
    [
      { key: 'record_id', type: 'TEXT' },
      { key: 'variant', type: 'TEXT' },
    ],
    ['rec-0', 'rec-1', 'rec-1'].map((id, k) => ({
      data: PNG,
      contentType: 'image/png',
      columns: { record_id: id, variant: k === 2 ? 'overview' : 'thumbnail' },
    })),
  );
  gpkg.relateMedia({
    name: 'Quicklooks',
    baseTable: 'catalog_footprints',
    baseColumn: 'id',
    mediaTable: 'quicklooks',
    mediaColumn: 'record_id',
  });
  db.exec('CREATE TABLE our_notes (id INTEGER PRIMARY KEY, note TEXT)');
  gpkg.registerExtensionTable('our_notes', 'eo_notes', 'https://example.org/notes');
  db.pragma('journal_mode = DELETE');
  db.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a GeoPackage of several layers', () => {
  it('passes GDAL’s validator', () => {
    expect(gpkgProblems(file)).toBe('');
  });

  it('lists each layer with its geometry type and count; our own table is not a layer', () => {
    expect(ogrLayers(file)).toEqual([
      { name: 'catalog_footprints', geometry: 'Polygon', count: 30 },
      // A polygon beside a multipolygon: a MULTIPOLYGON layer (the polygon promoted).
      { name: 'aois', geometry: 'Multi Polygon', count: 2 },
      { name: 'quicklooks', geometry: 'None', count: 3 },
      { name: 'catalog_footprints_quicklooks', geometry: 'None', count: 3 },
    ]);
  });

  it('keeps attributes typed and pictures related to their footprints', () => {
    const db = new Database(file, { readonly: true });
    try {
      const cols = db
        .prepare("SELECT name, type FROM pragma_table_info('catalog_footprints')")
        .all();
      expect(cols).toEqual([
        { name: 'fid', type: 'INTEGER' },
        { name: 'geom', type: 'POLYGON' },
        { name: 'id', type: 'TEXT' },
        { name: 'eo:cloud_cover', type: 'REAL' },
        { name: 'gsd', type: 'INTEGER' },
        { name: 'ordered', type: 'BOOLEAN' },
      ]);
      const related = db
        .prepare(
          `SELECT f.id, q.variant FROM catalog_footprints_quicklooks m
           JOIN catalog_footprints f ON f.fid = m.base_id JOIN quicklooks q ON q.id = m.related_id
           ORDER BY q.id`,
        )
        .all();
      expect(related).toEqual([
        { id: 'rec-0', variant: 'thumbnail' },
        { id: 'rec-1', variant: 'thumbnail' },
        { id: 'rec-1', variant: 'overview' },
      ]);
      const extent = db
        .prepare("SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = 'aois'")
        .get();
      expect(extent).toEqual({ min_x: 5, min_y: 0, max_x: 101, max_y: 6 });
    } finally {
      db.close();
    }
  });

  it('answers a spatial filter through its R-tree', () => {
    const db = new Database(file, { readonly: true });
    try {
      const ids = db
        .prepare(
          `SELECT id FROM rtree_catalog_footprints_geom
           WHERE maxx >= 10.5 AND minx <= 13.5 AND maxy >= 0 AND miny <= 1 ORDER BY id`,
        )
        .pluck()
        .all();
      expect(ids).toEqual([6, 7]);
    } finally {
      db.close();
    }
  });

  it('refuses a geometry of another type than the layer declares', () => {
    const db = new Database(':memory:');
    try {
      const gpkg = makeGeoPackageWriter(db);
      const point: ExportFeature = {
        geometry: { type: 'Point', coordinates: [1, 2] },
        properties: {},
      };
      expect(() =>
        gpkg.featureLayer('areas', { columns: [], geometryType: 'POLYGON' }, [point]),
      ).toThrow('areas: a POINT in a layer of POLYGON');
    } finally {
      db.close();
    }
  });

  it('an export in memory passes the validator too', () => {
    const small = path.join(dir, 'small.gpkg');
    fs.writeFileSync(small, toGeoPackage([{ geometry: square(1), properties: { name: 'A' } }]));
    expect(gpkgProblems(small)).toBe('');
    expect(ogrLayers(small)).toEqual([{ name: 'features', geometry: 'Polygon', count: 1 }]);
  });
});

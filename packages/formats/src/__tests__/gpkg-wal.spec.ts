/**
 * A GeoPackage saved by QGIS or QField is in WAL mode (header bytes 18 and 19 are 2): SQLite
 * cannot open such an image from memory (WAL needs shared memory), so the reader marks a copy
 * as a rollback-journal database first. The file itself is never written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { importFile } from '../import';
import { toGeoPackage } from '../write/geopackage';
import { PARCEL_WITH_HOLE } from './fixtures';

describe('GeoPackage in WAL mode', () => {
  it('is read like any other', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-formats-wal-'));
    try {
      const file = path.join(dir, 'qgis.gpkg');
      fs.writeFileSync(
        file,
        toGeoPackage([{ geometry: PARCEL_WITH_HOLE, properties: { name: 'Wiese' } }]),
      );
      const db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.close();
      const bytes = fs.readFileSync(file);
      expect([bytes[18], bytes[19]]).toEqual([2, 2]);
      const preview = await importFile(file, bytes);
      expect(preview.features.map((f) => [f.name, f.problem])).toEqual([['Wiese', null]]);
      expect([bytes[18], bytes[19]]).toEqual([2, 2]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

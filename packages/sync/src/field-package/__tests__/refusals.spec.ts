/**
 * Packages a laptop must refuse, each with a clear reason and nothing changed in its mirror:
 * from another service or organisation, cut short, damaged, not ours, made to hurt (a view
 * that never ends, a generated column, a record under another's id, oversized values), or of
 * a later layout. The hostile files are made here, from a real package or from scratch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FieldPackageOptions } from '@eo/domain';
import { toGeoPackage } from '@eo/formats';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror, type Mirror } from '../../mirror/mirror';
import { OriginMismatchError } from '../../mirror/origin';
import { PackageError } from '../read';
import { everything, syntheticMirror } from './synthetic';

let dir: string;
let pkg: string;
let target: string;
let mirror: Mirror;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-package-refusals-'));
  const office = openMirror(syntheticMirror(dir, 'office'));
  pkg = path.join(dir, 'site.gpkg');
  office.packages.write(
    FieldPackageOptions.parse({
      selection: {
        kind: 'area',
        area: {
          type: 'Polygon',
          coordinates: [
            [
              [-180, -90],
              [180, -90],
              [180, 90],
              [-180, 90],
              [-180, -90],
            ],
          ],
        },
        name: 'Site',
      },
    }),
    pkg,
  );
  office.close();
  // The laptop that receives: same service and organisation, records of its own.
  target = syntheticMirror(dir, 'field', { seed: 99, catalogs: 2 });
  mirror = openMirror(target);
});
afterAll(() => {
  mirror?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the package changed with SQL (a rollback-journal file, as written). */
function altered(name: string, sql: string, params: unknown[] = []): string {
  const file = path.join(dir, name);
  fs.copyFileSync(pkg, file);
  const db = new Database(file);
  db.prepare(sql).run(...params);
  db.close();
  return file;
}

/** A GeoPackage made from scratch with our manifest and the given schema. */
function forged(name: string, ddl: string): string {
  const file = path.join(dir, name);
  const db = new Database(file);
  const source = new Database(pkg, { readonly: true });
  const manifest = source
    .prepare("SELECT value FROM eo_package WHERE key = 'manifest'")
    .pluck()
    .get();
  source.close();
  db.pragma('application_id = 1196444487');
  db.exec('CREATE TABLE eo_package (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)');
  db.prepare("INSERT INTO eo_package VALUES ('manifest', ?)").run(manifest);
  db.exec(ddl);
  db.close();
  return file;
}

async function refused(file: string, into: Mirror = mirror): Promise<string> {
  const before = everything(into.file);
  const error = await into.packages.import(file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(everything(into.file)).toBe(before);
  if (!(error instanceof PackageError) && !(error instanceof OriginMismatchError)) throw error;
  return error.message;
}

describe('a package from elsewhere', () => {
  it('of another organisation is refused, and changes nothing', async () => {
    const other = openMirror(syntheticMirror(dir, 'other-org', { organisation: 'org-elsewhere' }));
    try {
      expect(await refused(pkg, other)).toBe(
        "The package is from another origin: it holds the records of organisation org-site, this laptop's are of org-elsewhere. Nothing was changed.",
      );
    } finally {
      other.close();
    }
  });

  it('of another service is refused, and changes nothing', async () => {
    const other = openMirror(
      syntheticMirror(dir, 'other-service', { service: 'https://another.example:8443/v0' }),
    );
    try {
      expect(await refused(pkg, other)).toBe(
        "The package is from another origin: it was made from the service https://eo.example, this laptop's is https://another.example:8443. Nothing was changed.",
      );
    } finally {
      other.close();
    }
  });

  it('is checked against the configured service when the mirror never synced', async () => {
    const fresh = openMirror(path.join(dir, 'never-synced', 'mirror.sqlite'));
    try {
      const error = await fresh.packages
        .import(pkg, { service: 'https://another.example' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OriginMismatchError);
      expect(fresh.counts().catalogs).toBe(0);
      expect(
        (await fresh.packages.import(pkg, { service: 'https://eo.example/' })).records.catalogs,
      ).toMatchObject({ added: 4 });
    } finally {
      fresh.close();
    }
  });
});

describe('a damaged or hostile package', () => {
  it('cut short is named truncated, with how much arrived', async () => {
    const file = path.join(dir, 'half.gpkg');
    const bytes = fs.readFileSync(pkg);
    fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refused(file)).toMatch(
      /^the package is truncated: \d+\.\d MB of \d+\.\d MB were copied\. Copy it again/,
    );
  });

  it('that is no SQLite file, or a plain GeoPackage, is not a field package', async () => {
    const kml = path.join(dir, 'fields.kml');
    fs.writeFileSync(kml, `<?xml version="1.0"?><kml>${' '.repeat(2000)}</kml>`);
    expect(await refused(kml)).toBe(
      'not a field package: the file is not a GeoPackage (no SQLite header)',
    );
    const plain = path.join(dir, 'qgis.gpkg');
    fs.writeFileSync(
      plain,
      toGeoPackage([{ geometry: { type: 'Point', coordinates: [1, 2] }, properties: {} }]),
    );
    expect(await refused(plain)).toMatch(/^not a field package: a GeoPackage without the tables/);
  });

  it('whose records are a view that never ends is refused before it runs', async () => {
    const file = forged(
      'endless.gpkg',
      `CREATE VIEW eo_records AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
       SELECT n AS id, 'orders' AS resource, CAST(n AS TEXT) AS record_id,
         NULL AS updated_at_us, zeroblob(100000000) AS json FROM r`,
    );
    expect(await refused(file)).toBe('the package is not of our making: eo_records is a view');
  });

  it('with a generated column is refused before it is read', async () => {
    const file = forged(
      'generated.gpkg',
      `CREATE TABLE eo_records (id INTEGER PRIMARY KEY, resource TEXT, record_id TEXT,
         updated_at_us INTEGER, json TEXT GENERATED ALWAYS AS (zeroblob(1000000000)) VIRTUAL)`,
    );
    expect(await refused(file)).toBe(
      'the package is not of our making: eo_records has other columns',
    );
  });

  it('with a record filed under another record’s id is damaged', async () => {
    const file = altered(
      'misfiled.gpkg',
      "UPDATE eo_records SET record_id = 'cat-of-this-laptop' WHERE resource = 'catalogs' AND record_id = 'cat-0'",
    );
    expect(await refused(file)).toBe(
      'the package is damaged: catalogs "cat-of-this-laptop" holds the record cat-0',
    );
  });

  it('with a value over its limit is refused by its size', async () => {
    const file = altered(
      'huge.gpkg',
      "UPDATE eo_records SET json = ? || json WHERE record_id = 'cat-2'",
      [' '.repeat(17_000_000)],
    );
    expect(await refused(file)).toBe('record cat-2 of the package is larger than 16.0 MB');
  });

  it('with a picture that is not what its row says is damaged', async () => {
    const file = altered(
      'picture.gpkg',
      'UPDATE quicklooks SET data = zeroblob(5000) WHERE id = 1',
    );
    expect(await refused(file)).toMatch(
      /^the package is damaged: the picture thumbnail of cat-\d does not match its hash$/,
    );
  });

  it('of a later layout asks for an update', async () => {
    const file = altered(
      'later.gpkg',
      "UPDATE eo_package SET value = json_set(value, '$.version', 9) WHERE key = 'manifest'",
    );
    expect(await refused(file)).toBe(
      "the package was made by a newer EO Field Desk (layout 9; this one reads 1): update this laptop's",
    );
  });

  it('left in write-ahead mode is refused with what to do', async () => {
    const file = path.join(dir, 'wal.gpkg');
    fs.copyFileSync(pkg, file);
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.close();
    expect(await refused(file)).toMatch(/^the package was left in write-ahead mode/);
  });

  it('still leaves the mirror able to take a good package afterwards', async () => {
    const report = await mirror.packages.import(pkg);
    const { added, updated, kept } = report.records.catalogs!;
    // cat-0 and cat-1 are on both laptops (the newer of each stays), cat-2 and cat-3 come in.
    expect([added, updated + kept]).toEqual([2, 2]);
    expect(mirror.counts().catalogs).toBe(4);
  });
});

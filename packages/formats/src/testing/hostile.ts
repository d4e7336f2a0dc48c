/**
 * Hostile field files, made on the spot (nothing checked in): each is small or cheap to make
 * and costs a naive reader unbounded time or memory. For the import tests of every package
 * that reads field files (`@eo/formats/testing`).
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import { constants, deflateRawSync } from 'node:zlib';
import { toGeoPackage } from '../write/geopackage';
import { square } from './square';

/** A valid one-feature GeoPackage whose feature table `plots` is replaced by `replace(db)`. */
function doctoredGeoPackage(replace: (db: Database.Database) => void): Uint8Array {
  const valid = toGeoPackage(
    [
      {
        geometry: { type: 'Polygon', coordinates: [square(10, 45, 0.01)] },
        properties: { name: 'plot' },
      },
    ],
    'plots',
  );
  const db = new Database(Buffer.from(valid));
  try {
    replace(db);
    return db.serialize();
  } finally {
    db.close();
  }
}

/** ~20 KB: the feature table is a view over an endless recursive query. */
export function recursiveViewGeoPackage(): Uint8Array {
  return doctoredGeoPackage((db) =>
    db.exec(`DROP TABLE plots;
      CREATE VIEW plots AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT n AS fid, NULL AS geom, 'x' AS name FROM r;`),
  );
}

/** ~20 KB: the feature table is a view whose rows each hold 100 MB of text. */
export function hugeRowsViewGeoPackage(): Uint8Array {
  return doctoredGeoPackage((db) =>
    db.exec(`ALTER TABLE plots RENAME TO plots_data;
      CREATE VIEW plots AS SELECT fid, geom, printf('%.*c', 100000000, 'x') AS name FROM plots_data;`),
  );
}

/** gpkg_contents itself a view (of an endless query): nothing of it may be read. */
export function contentsViewGeoPackage(): Uint8Array {
  return doctoredGeoPackage((db) =>
    db.exec(`ALTER TABLE gpkg_contents RENAME TO contents_data;
      CREATE VIEW gpkg_contents AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
      SELECT c.* FROM contents_data c, r;`),
  );
}

/** A feature table with a generated column computing 100 MB per row on read. */
export function generatedColumnGeoPackage(): Uint8Array {
  return doctoredGeoPackage((db) =>
    db.exec(
      `ALTER TABLE plots ADD COLUMN big TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL;`,
    ),
  );
}

/** A stored feature table with one attribute of `bytes` bytes (a real, large cell). */
export function bigCellGeoPackage(bytes: number): Uint8Array {
  return doctoredGeoPackage((db) => {
    db.exec('ALTER TABLE plots ADD COLUMN note TEXT');
    db.prepare('UPDATE plots SET note = ?').run('x'.repeat(bytes));
  });
}

/**
 * A KMZ (about 1 kB per inflated MB) whose doc.kml inflates to `inflatedMb` MB of spaces:
 * the same fully flushed deflate block repeated (each decodes alone), so it is cheap to make.
 * `lie`: the zip declares 1 kB for it (the declared size is all a careful reader trusts).
 */
export function kmzBomb(inflatedMb: number, options: { lie?: boolean } = {}): Uint8Array {
  const mb = Buffer.alloc(1024 * 1024, 0x20);
  const block = deflateRawSync(mb, { finishFlush: constants.Z_FULL_FLUSH });
  const end = deflateRawSync(Buffer.alloc(0));
  const data = Buffer.concat([...Array.from({ length: inflatedMb }, () => block), end]);
  const name = Buffer.from('doc.kml');
  const declared = options.lie ? 1024 : inflatedMb * 1024 * 1024;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  const centralAt = local.length + name.length + data.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(central.length + name.length, 12);
  eocd.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, name, data, central, name, eocd]);
}

/**
 * Writes a CSV of WKT squares to `file` until it holds at least `bytes` bytes, a chunk at a
 * time (never the whole text in memory); returns the rows written.
 */
export function writeBigCsv(file: string, bytes: number): number {
  return writeUntil(
    file,
    'name,wkt\n',
    bytes,
    (i) => {
      const ring = plotSquare(i)
        .map((p) => `${p[0]!.toFixed(6)} ${p[1]!.toFixed(6)}`)
        .join(', ');
      return `plot ${i},"POLYGON ((${ring}))"\n`;
    },
    '',
  );
}

/** The ring of the i-th plot of the big files: squares on a 3000-wide grid, 0.01° apart. */
const plotSquare = (i: number) => square((i % 3000) * 0.01, Math.floor(i / 3000) * 0.01, 0.005);

/** Writes `text(i)` for i = 0, 1, … to `file` in chunks until it holds `bytes`; returns the count. */
function writeUntil(
  file: string,
  head: string,
  bytes: number,
  text: (i: number) => string,
  tail: string,
): number {
  const fd = fs.openSync(file, 'w');
  try {
    let written = fs.writeSync(fd, head);
    let n = 0;
    while (written < bytes) {
      let chunk = '';
      for (
        let k = 0;
        k < 1000 && chunk.length < 1 << 20 && written + chunk.length < bytes;
        k++, n++
      )
        chunk += text(n);
      written += fs.writeSync(fd, chunk);
    }
    fs.writeSync(fd, tail);
    return n;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A valid GeoJSON FeatureCollection of small squares written to `file` until it holds at least
 * `bytes` bytes (never whole in memory); returns the features written.
 */
export function writeBigGeoJson(file: string, bytes: number): number {
  return writeUntil(
    file,
    '{"type":"FeatureCollection","features":[',
    bytes,
    (i) =>
      `${i === 0 ? '' : ','}{"type":"Feature","id":${i},"properties":{"name":"plot ${i}"},` +
      `"geometry":{"type":"Polygon","coordinates":[${JSON.stringify(plotSquare(i))}]}}`,
    ']}',
  );
}

/**
 * Hostile GeoJSON files of `bytes` bytes, written in chunks: `nested`, a feature whose
 * attribute opens arrays without end; `string`, a feature whose attribute is one text of the
 * whole file. Parsed whole, either costs a naive reader its stack or several times its size in
 * memory.
 */
export function writeHostileGeoJson(file: string, kind: 'nested' | 'string', bytes: number): void {
  const head = '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"a":';
  const run = (kind === 'nested' ? '[' : 'x').repeat(64 * 1024);
  writeUntil(
    file,
    head + (kind === 'string' ? '"' : ''),
    bytes,
    () => run,
    (kind === 'string' ? '"' : ']') + '},"geometry":null}]}',
  );
}

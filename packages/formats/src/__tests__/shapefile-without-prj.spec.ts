/**
 * A zipped Shapefile that lost its .prj (GDAL writes it, the test removes it): read as WGS 84
 * lon/lat with a warning when its coordinates fit, refused naming the missing .prj when they do
 * not (UTM metres). Nothing guessed silently.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { importFile } from '../import';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-shp-noprj-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A Shapefile ogr2ogr makes of `ring` in `epsg`, zipped without the .prj it wrote. */
function shapefileWithoutPrj(name: string, epsg: number, ring: number[][]): Uint8Array {
  const source = path.join(dir, `${name}.geojson`);
  fs.writeFileSync(
    source,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: `${name} field` },
          geometry: { type: 'Polygon', coordinates: [ring] },
        },
      ],
    }),
  );
  const shp = path.join(dir, `${name}.shp`);
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', '-a_srs', `EPSG:${epsg}`, shp, source], {
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // GDAL wrote a .prj; the file as a field team sometimes gets it has none.
  expect(fs.existsSync(path.join(dir, `${name}.prj`))).toBe(true);
  const parts = Object.fromEntries(
    ['shp', 'shx', 'dbf', 'cpg']
      .filter((ext) => fs.existsSync(path.join(dir, `${name}.${ext}`)))
      .map((ext) => [
        `${name}.${ext}`,
        new Uint8Array(fs.readFileSync(path.join(dir, `${name}.${ext}`))),
      ]),
  );
  return zipSync(parts);
}

describe('a Shapefile without its .prj', () => {
  it('coordinates that fit lon/lat: read as WGS 84, with a warning saying so', async () => {
    const ring = [
      [16.37, 48.21],
      [16.38, 48.21],
      [16.38, 48.22],
      [16.37, 48.22],
      [16.37, 48.21],
    ];
    const preview = await importFile('wiese.zip', shapefileWithoutPrj('wiese', 4326, ring));
    expect(preview.warnings).toEqual(['wiese.shp: no .prj: read as WGS 84 lon/lat']);
    expect(preview.sourceCrs).toBeNull();
    const [f] = preview.features;
    expect(f!.name).toBe('wiese field');
    expect(f!.problem).toBeNull();
    // The same positions as written (the ring may start elsewhere, RFC 7946 orientation).
    const sorted = (ps: number[][]) => ps.map((p) => p.join(' ')).sort();
    const written = (f!.area as { coordinates: number[][][] }).coordinates[0]!;
    expect(sorted(written)).toEqual(sorted(ring));
  });

  it('UTM metres: refused, naming the missing .prj and a position that is not lon/lat', async () => {
    // A 1 km square in WGS 84 / UTM zone 33N.
    const ring = [
      [500_000, 5_300_000],
      [501_000, 5_300_000],
      [501_000, 5_301_000],
      [500_000, 5_301_000],
      [500_000, 5_300_000],
    ];
    const bytes = shapefileWithoutPrj('flur', 32633, ring);
    const error = await importFile('flur.zip', bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).message).toBe(
      'flur.zip: cannot read it as shapefile: flur.shp has no .prj and its coordinates are not longitude/latitude (500000, 5300000): add the .prj that came with it to the zip',
    );
  });

  it('with its .prj, the same UTM file is reprojected and says nothing of a guess', async () => {
    const ring = [
      [500_000, 5_300_000],
      [501_000, 5_300_000],
      [501_000, 5_301_000],
      [500_000, 5_301_000],
      [500_000, 5_300_000],
    ];
    shapefileWithoutPrj('acker', 32633, ring);
    const parts = Object.fromEntries(
      ['shp', 'shx', 'dbf', 'prj'].map((ext) => [
        `acker.${ext}`,
        new Uint8Array(fs.readFileSync(path.join(dir, `acker.${ext}`))),
      ]),
    );
    const preview = await importFile('acker.zip', zipSync(parts));
    expect(preview.warnings).toEqual([]);
    expect(preview.sourceCrs).toMatch(/UTM.zone.33N/i);
    expect(preview.features[0]!.problem).toBeNull();
    // Easting 500 000 is the zone's central meridian, 15°E.
    const ring84 = (preview.features[0]!.area as { coordinates: number[][][] }).coordinates[0]!;
    expect(Math.min(...ring84.map((p) => p[0]!))).toBeCloseTo(15, 9);
  });
});

/**
 * Every export judged by GDAL (`ogrinfo`): ids, types and geometry intact. GeoJSON features
 * carry a top-level id; CSV carries the geometry as WKT by default; KML's attributes are typed
 * by a Schema; a GeoPackage has DATETIME and DATE columns and a declared geometry type; a
 * Shapefile's cut field names are mapped in `<layer>.fields.csv` and a text too long for a
 * .dbf field is left out (not cut), both said by `exportNotes`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { exportFeatures, exportNotes, type ExportFormat } from '../../export';
import { ogrFields, ogrLayers, ogrValues } from '../../testing/gdal';
import type { ExportFeature } from '../feature';

const WKT2 = `PROJCRS["WGS 84 / UTM zone 31N",${'BASEGEOGCRS["WGS 84",DATUM["World Geodetic System 1984"]],'.repeat(6)}ID["EPSG",32631]]`;

const square = (x: number, y: number) => [
  [x, y],
  [x + 0.1, y],
  [x + 0.1, y + 0.1],
  [x, y + 0.1],
  [x, y],
];

const FEATURES: ExportFeature[] = [
  {
    geometry: { type: 'Polygon', coordinates: [square(4.5, 43.5)] },
    properties: {
      id: 'aoi-1',
      name: 'Camargue',
      cloud_cover: 3.5,
      scenes: 4,
      ready: true,
      acquisition_datetime: '2024-04-11T10:12:00.123456Z',
      acquisition_day: '2024-04-11',
      'proj:wkt2': WKT2,
    },
  },
  {
    geometry: { type: 'MultiPolygon', coordinates: [[square(31, 30.9)], [square(31.2, 30.9)]] },
    properties: {
      id: 'aoi-2',
      name: 'Nile delta',
      cloud_cover: 0,
      scenes: 3,
      ready: false,
      acquisition_datetime: '2024-01-23T08:26:00Z',
      acquisition_day: null,
      'proj:wkt2': WKT2,
    },
  },
];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-typed-exports-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function written(format: ExportFormat, ext: string = format): string {
  const file = path.join(dir, `aois.${ext}`);
  fs.writeFileSync(file, exportFeatures(FEATURES, format, { layer: 'aois' }));
  return file;
}

describe('exports as GDAL reads them', () => {
  it('GeoJSON: each feature has its id at the top level, the attributes typed', () => {
    const text = fs.readFileSync(written('geojson'), 'utf8');
    expect(JSON.parse(text).features.map((f: { id: string }) => f.id)).toEqual(['aoi-1', 'aoi-2']);
    const fields = ogrFields(path.join(dir, 'aois.geojson'))['aois']!;
    expect(fields).toMatchObject({
      id: 'String',
      cloud_cover: 'Real',
      scenes: 'Integer',
      ready: 'Integer(Boolean)',
      acquisition_datetime: 'DateTime',
      acquisition_day: 'Date',
    });
  });

  it('CSV: the geometry as WKT by default, GDAL reading it as the geometry', () => {
    const file = path.join(dir, 'aois.csv');
    fs.writeFileSync(file, exportFeatures(FEATURES, 'csv'));
    const values = ogrValues(file);
    expect(values.map((v) => v['id'])).toEqual(['aoi-1', 'aoi-2']);
    expect(values.map((v) => v['wkt']?.split(' ')[0])).toEqual(['POLYGON', 'MULTIPOLYGON']);
    expect(String(exportFeatures(FEATURES, 'csv', { wkt: false })).split('\r\n')[0]).not.toMatch(
      /,wkt$/,
    );
  });

  it('KML: the attributes typed by a Schema (numbers as numbers), nulls left empty', () => {
    const file = written('kml');
    const fields = Object.values(ogrFields(file))[0]!;
    expect(fields).toMatchObject({ cloud_cover: 'Real', scenes: 'Integer', id: 'String' });
    const values = ogrValues(file);
    expect(values.map((v) => v['scenes'])).toEqual(['4', '3']);
    expect(values[0]!['cloud_cover']).toBe('3.5');
  });

  it('GeoPackage: DATETIME and DATE columns, one declared geometry type (polygons promoted)', () => {
    const file = written('gpkg');
    expect(ogrLayers(file)).toEqual([{ name: 'aois', geometry: 'Multi Polygon', count: 2 }]);
    expect(ogrFields(file)['aois']).toMatchObject({
      id: 'String',
      cloud_cover: 'Real',
      scenes: 'Integer64',
      ready: 'Integer(Boolean)',
      acquisition_datetime: 'DateTime',
      acquisition_day: 'Date',
      'proj:wkt2': 'String',
    });
    const values = ogrValues(file);
    expect(values[0]!['acquisition_datetime']).toBe('2024/04/11 10:12:00.123+00');
    expect(values[0]!['proj:wkt2']).toBe(WKT2);
  });

  it('Shapefile: cut names mapped in the zip, a long WKT left out and said, not cut', () => {
    const zip = written('shp', 'zip');
    const files = unzipSync(fs.readFileSync(zip));
    const table = new TextDecoder().decode(files['aois.fields.csv']);
    expect(table.split('\r\n')).toEqual(
      expect.arrayContaining([
        'field,attribute,note',
        'cloud_cove,cloud_cover,name cut to 10 characters',
        'acquisitio,acquisition_datetime,name cut to 10 characters',
        'acquisiti1,acquisition_day,name cut to 10 characters',
        expect.stringMatching(
          /^,proj:wkt2,"left out: values up to \d+ bytes, a .dbf field holds 254"$/,
        ),
      ]),
    );
    const fields = ogrFields(`/vsizip/${zip}/aois.shp`)['aois']!;
    expect(Object.keys(fields)).toEqual([
      'id',
      'name',
      'cloud_cove',
      'scenes',
      'ready',
      'acquisitio',
      'acquisiti1',
    ]);
    expect(ogrValues(`/vsizip/${zip}/aois.shp`).map((v) => v['id'])).toEqual(['aoi-1', 'aoi-2']);
    const notes = exportNotes(FEATURES, 'shp', { layer: 'aois' });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/cloud_cover → cloud_cove.*aois\.fields\.csv/);
    expect(notes[1]).toMatch(/Left out of the Shapefile.*proj:wkt2/);
    expect(exportNotes(FEATURES, 'gpkg')).toEqual([]);
  });
});

/**
 * Formats we only read (GPX, CSV with lon/lat) and what a preview says: names, attributes,
 * per-feature problems, the name field, and the file-level errors (one typed error naming
 * the file).
 */
import Database from 'better-sqlite3';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { importFile } from '../import';
import { toGeoPackage } from '../write/geopackage';
import { ACROSS_ANTIMERIDIAN, blob, maxDifference, PARCEL_WITH_HOLE } from './fixtures';

const text = (s: string) => new TextEncoder().encode(s);

/** A walked field boundary (back within a few metres of the start), an open track, a waypoint. */
function gpxFile(): string {
  const loop = blob(16.37, 48.21, 0.001, 30).slice(0, -1);
  loop.push([loop[0]![0]! + 0.00002, loop[0]![1]!]); // ~1.5 m short of where it started
  const pts = (ps: number[][]) =>
    ps.map(([lon, lat]) => `<trkpt lat="${lat}" lon="${lon}"><ele>180</ele></trkpt>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <wpt lat="48.2" lon="16.3"><name>Brunnen</name></wpt>
  <trk><name>Feldrand Süd — morgens</name><trkseg>${pts(loop)}</trkseg></trk>
  <trk><name>Weg zum Hof</name><trkseg>${pts([
    [16.3, 48.2],
    [16.31, 48.21],
    [16.33, 48.2],
  ])}</trkseg></trk>
</gpx>`;
}

describe('importFile', () => {
  it('GPX: a walked loop becomes an area; an open track and a waypoint say why not', async () => {
    const preview = await importFile('morning.gpx', text(gpxFile()));
    expect(preview.format).toBe('gpx');
    const byName = Object.fromEntries(preview.features.map((f) => [f.name, f]));
    expect(Object.keys(byName).sort()).toEqual([
      'Brunnen',
      'Feldrand Süd — morgens',
      'Weg zum Hof',
    ]);
    expect(byName['Feldrand Süd — morgens']!.problem).toBeNull();
    expect(byName['Feldrand Süd — morgens']!.area?.type).toBe('Polygon');
    expect(byName['Feldrand Süd — morgens']!.repairs).toContain('closed 1 open ring');
    expect(byName['Weg zum Hof']!.problem).toMatch(/^a line where an area is needed/);
    expect(byName.Brunnen!.problem).toBe('a point where an area is needed');
  });

  it('CSV with lon/lat columns (semicolons, decimal commas): points, refused as areas, attributes kept', async () => {
    const csv = '\uFEFFName;Lon;Lat;Probe\r\nÇayır 1;16,37;48,21;A\r\nÇayır 2;16.38;48.22;B\r\n';
    const preview = await importFile('samples.csv', text(csv));
    expect(preview.features.map((f) => [f.name, f.geometry, f.properties])).toEqual([
      ['Çayır 1', { type: 'Point', coordinates: [16.37, 48.21] }, { Name: 'Çayır 1', Probe: 'A' }],
      ['Çayır 2', { type: 'Point', coordinates: [16.38, 48.22] }, { Name: 'Çayır 2', Probe: 'B' }],
    ]);
    expect(preview.features.every((f) => f.problem === 'a point where an area is needed')).toBe(
      true,
    );
  });

  it('CSV with WKT: a row whose WKT cannot be read is a problem of that feature, not of the file', async () => {
    const csv =
      'plot,wkt\nok,"POLYGON Z ((0 0 1, 1 0 1, 1 1 1, 0 1 1, 0 0 1))"\nbad,"POLYGON ((0 0, 1 0"\n';
    const preview = await importFile('plots.csv', text(csv), { nameField: 'plot' });
    expect(preview.features[0]).toMatchObject({ name: 'ok', problem: null });
    expect(preview.features[1]).toMatchObject({
      name: 'bad',
      area: null,
      problem: 'geometry unreadable: WKT: expected ")" at character 19',
    });
  });

  it('KML as Google Earth saves it: folders, styles, CDATA descriptions, SchemaData attributes', async () => {
    const ring = blob(-1.55, 47.2, 0.002, 8)
      .map((p) => `${p[0]},${p[1]},0`)
      .join(' ');
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
<Document><name>Parcelles</name>
  <Schema name="parcelles" id="S_p"><SimpleField type="string" name="code"></SimpleField></Schema>
  <Style id="s_ylw"><PolyStyle><color>7f00ffff</color></PolyStyle></Style>
  <StyleMap id="m_ylw"><Pair><key>normal</key><styleUrl>#s_ylw</styleUrl></Pair></StyleMap>
  <Folder><name>Ferme</name><Folder><name>Nord</name>
    <Placemark><name>Pré de l'Étang</name><styleUrl>#m_ylw</styleUrl>
      <description><![CDATA[<b>Blé</b> & orge]]></description>
      <ExtendedData><SchemaData schemaUrl="#S_p"><SimpleData name="code">FR-44-0007</SimpleData></SchemaData></ExtendedData>
      <Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>
    </Placemark>
  </Folder></Folder>
</Document></kml>`;
    const [feature] = (await importFile('Parcelles.kml', text(kml))).features;
    expect(feature).toMatchObject({
      name: "Pré de l'Étang",
      problem: null,
      repairs: ['dropped the third coordinate (height)'],
    });
    expect(feature!.properties).toMatchObject({
      code: 'FR-44-0007',
      description: '<b>Blé</b> & orge',
    });
    expect(Object.keys(feature!.properties)).not.toContain('styleUrl');
  });

  it('KML styles are not attributes: inline Line/Poly/Icon/LabelStyle keys are left out', async () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Style id="s"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle></Style>
  <Placemark><name>Champ</name><styleUrl>#s</styleUrl>
    <Style><LineStyle><color>ff00ff00</color><width>3</width></LineStyle>
      <PolyStyle><color>7f00ffff</color></PolyStyle>
      <IconStyle><color>ff0000ff</color><scale>1.1</scale><Icon><href>pin.png</href></Icon></IconStyle>
      <LabelStyle><color>ffffffff</color><scale>0.8</scale></LabelStyle></Style>
    <ExtendedData><Data name="crop"><value>maize</value></Data></ExtendedData>
    <Polygon><outerBoundaryIs><LinearRing><coordinates>
      10,50 10.01,50 10.01,50.01 10,50.01 10,50
    </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`;
    const [feature] = (await importFile('styled.kml', text(kml))).features;
    expect(feature!.properties).toEqual({ name: 'Champ', crop: 'maize' });
  });

  it('KML as Google Earth writes an area across the antimeridian (one ring): split at ±180°', async () => {
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Taveuni ↔ 180°</name>
<Polygon><outerBoundaryIs><LinearRing><coordinates>
179.5,-17,0 -179.6,-17,0 -179.6,-16.5,0 179.5,-16.5,0 179.5,-17,0
</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Document></kml>`;
    const [feature] = (await importFile('fiji.kml', text(kml))).features;
    expect(feature).toMatchObject({
      name: 'Taveuni ↔ 180°',
      area: ACROSS_ANTIMERIDIAN,
      problem: null,
    });
    expect(feature!.repairs).toEqual([
      'split 1 polygon at the antimeridian (±180°)',
      'dropped the third coordinate (height)',
    ]);
  });

  it('a GeoPackage in UTM 33N is reprojected from gpkg_spatial_ref_sys', async () => {
    const utm = '+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs';
    const wgs = toGeoPackage(
      [{ geometry: PARCEL_WITH_HOLE, properties: { name: 'Wiese' } }],
      'plots',
    );
    // Rewrite it as QGIS would save it in UTM 33N: srs 32633 and projected positions.
    const db = new Database(Buffer.from(wgs));
    const forward = proj4('WGS84', utm);
    const projected = {
      type: 'Polygon' as const,
      coordinates: (PARCEL_WITH_HOLE as { coordinates: number[][][] }).coordinates.map((r) =>
        r.map((p) => forward.forward([p[0]!, p[1]!])),
      ),
    };
    const { gpkgGeometry } = await import('../write/geopackage');
    const blobBytes = gpkgGeometry(projected);
    new DataView(blobBytes.buffer).setInt32(4, 32633, true);
    db.prepare(
      `INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84 / UTM zone 33N', 32633, 'EPSG', 32633, ?, NULL)`,
    ).run(
      'PROJCS["WGS 84 / UTM zone 33N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",15],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]',
    );
    db.prepare('UPDATE gpkg_geometry_columns SET srs_id = 32633').run();
    db.prepare('UPDATE plots SET geom = ?').run(Buffer.from(blobBytes));
    const bytes = db.serialize();
    db.close();
    const preview = await importFile('utm.gpkg', bytes);
    expect(preview.sourceCrs).toBe('WGS 84 / UTM zone 33N');
    expect(preview.features[0]!.name).toBe('Wiese');
    expect(maxDifference(preview.features[0]!.area, PARCEL_WITH_HOLE)).toBeLessThan(1e-7);
  });

  it('file-level failures are one FormatError naming the file and saying what is wrong', async () => {
    const fail = (name: string, bytes: Uint8Array, options = {}) =>
      importFile(name, bytes, options).then(
        () => expect.unreachable('no error'),
        (e: unknown) => {
          expect(e).toBeInstanceOf(FormatError);
          return (e as Error).message;
        },
      );
    expect(await fail('notes.docx', text('hello'))).toBe(
      'notes.docx: unknown format (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV)',
    );
    expect(await fail('a.geojson', text('{"type":"FeatureCollection","features":[]}'))).toBe(
      'a.geojson: no features',
    );
    expect(await fail('a.kml', text('<kml><Document><Placemark></Document></kml>'))).toMatch(
      /^a\.kml: cannot read it as kml: not well-formed XML/,
    );
    expect(await fail('a.zip', text('PK not really'))).toMatch(
      /^a\.zip: cannot read it as shapefile: /,
    );
    expect(await fail('a.gpkg', text('SQLite format 3\u0000 and then nothing'))).toMatch(
      /^a\.gpkg: cannot read it as geopackage: /,
    );
    const gj = text(
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}',
    );
    expect(await fail('p.geojson', gj, { nameField: 'parcel' })).toBe(
      'p.geojson: no attribute "parcel" to name features by',
    );
  });
});

describe('GeoJSON with a crs member (GeoJSON 2008)', () => {
  const square3857 = (crs: string) =>
    new TextEncoder().encode(
      JSON.stringify({
        type: 'FeatureCollection',
        crs: { type: 'name', properties: { name: crs } },
        features: [
          {
            type: 'Feature',
            properties: { name: 'Web Mercator' },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [0, 0],
                  [111319.49079327357, 0],
                  [111319.49079327357, 111325.14286638486],
                  [0, 111325.14286638486],
                  [0, 0],
                ],
              ],
            },
          },
        ],
      }),
    );

  it('EPSG:3857 is reprojected; an unknown CRS is refused rather than read as degrees', async () => {
    const preview = await importFile('m.geojson', square3857('urn:ogc:def:crs:EPSG::3857'));
    expect(preview.sourceCrs).toBe('EPSG:3857');
    const ring = (preview.features[0]!.area as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring[2]![0]).toBeCloseTo(1, 9);
    expect(ring[2]![1]).toBeCloseTo(1, 9);
    await expect(importFile('x.geojson', square3857('EPSG:31287'))).rejects.toThrow(
      'x.geojson: cannot read it as geojson: a CRS this reader does not know (EPSG:31287): export the file in WGS 84',
    );
  });

  it('a .shp alone is refused with what to give instead', async () => {
    await expect(importFile('parcels.shp', new Uint8Array(100))).rejects.toThrow(
      'parcels.shp: a part of a Shapefile alone: give the .zip of its .shp, .dbf and .prj (and .cpg) together',
    );
  });
});

describe('Shapefile text encodings', () => {
  it('a .dbf in windows-1252 ("ANSI 1252" in the .cpg, as ArcGIS writes it) reads its accents', async () => {
    const { unzipSync, zipSync } = await import('fflate');
    const { toShapefileZip } = await import('../write/shapefile');
    const files = unzipSync(
      toShapefileZip([{ geometry: PARCEL_WITH_HOLE, properties: { name: 'Pr# de l#tang' } }], {
        name: 'p',
      }),
    );
    // The same name in windows-1252: é (0xE9) and É (0xC9) are one byte each there.
    const dbf = files['p.dbf']!;
    const at = [...dbf].indexOf(0x23);
    dbf[at] = 0xe9;
    dbf[[...dbf].indexOf(0x23, at + 1)] = 0xc9;
    files['p.cpg'] = text('ANSI 1252');
    const [feature] = (await importFile('p.zip', zipSync(files))).features;
    expect(feature!.name).toBe('Pré de lÉtang');
  });

  it('.cpg names map to decoders; unknown ones fall back to windows-1252', async () => {
    const { dbfEncoding } = await import('../read/shapefile');
    expect(
      ['UTF-8', 'utf8', '65001', 'ANSI 1252', '1251', 'ISO-8859-2', 'ISO88591', 'klingon', ''].map(
        dbfEncoding,
      ),
    ).toEqual([
      'utf-8',
      'utf-8',
      'utf-8',
      'windows-1252',
      'windows-1251',
      'iso-8859-2',
      'iso-8859-1',
      'windows-1252',
      'windows-1252',
    ]);
  });
});

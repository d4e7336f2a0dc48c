/** The KML writer: escaping, names, holes, multipolygons, text XML cannot hold. */
import { describe, expect, it } from 'vitest';
import { square } from '../../testing/square';
import { kmlGeometry, toKml, xmlText } from '../kml';

describe('kml', () => {
  it('escapes the five XML characters and replaces what XML 1.0 cannot hold', () => {
    expect(xmlText(`a & b <c> "d" 'e'`)).toBe('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;');
    expect(xmlText('bell\u0007 tab\tline\n')).toBe('bell\uFFFD tab\tline\n');
    expect(xmlText('lone \uD800 pair \uD83D\uDE00')).toBe('lone \uFFFD pair \uD83D\uDE00');
    expect(xmlText('Çayır 東京')).toBe('Çayır 東京');
  });

  it('a polygon keeps its holes; a multipolygon is a MultiGeometry of polygons', () => {
    expect(
      kmlGeometry({ type: 'Polygon', coordinates: [square(0, 0, 2), square(0.5, 0.5, 1)] }),
    ).toBe(
      '<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 2,0 2,2 0,2 0,0</coordinates></LinearRing></outerBoundaryIs>' +
        '<innerBoundaryIs><LinearRing><coordinates>0.5,0.5 1.5,0.5 1.5,1.5 0.5,1.5 0.5,0.5</coordinates></LinearRing></innerBoundaryIs></Polygon>',
    );
    const multi = kmlGeometry({
      type: 'MultiPolygon',
      coordinates: [[square(179, 0, 1)], [square(-180, 0, 1)]],
    });
    expect(multi).toMatch(/^<MultiGeometry>(<Polygon>.*?<\/Polygon>){2}<\/MultiGeometry>$/);
    expect(multi).toContain('<coordinates>179,0 180,0 180,1 179,1 179,0</coordinates>');
    expect(kmlGeometry({ type: 'Point', coordinates: [1, 2, 3] })).toBe(
      '<Point><coordinates>1,2,3</coordinates></Point>',
    );
  });

  it('a Placemark per feature: named by name, else id; description and typed attributes escaped', () => {
    const kml = toKml([
      {
        geometry: null,
        properties: {
          id: 'a-1',
          name: 'Parcel <7> & "north"',
          description: 'Köy, "east" field',
          n: 3,
        },
      },
      { geometry: { type: 'Point', coordinates: [1, 2] }, properties: { id: 'b&2', empty: null } },
    ]);
    expect(kml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>' +
          '<Schema name="attributes" id="attributes"><SimpleField name="id" type="string"/><SimpleField name="name" type="string"/>' +
          '<SimpleField name="description" type="string"/><SimpleField name="n" type="int"/><SimpleField name="empty" type="string"/></Schema>',
        '<Placemark><name>Parcel &lt;7&gt; &amp; &quot;north&quot;</name><description>Köy, &quot;east&quot; field</description>' +
          '<ExtendedData><SchemaData schemaUrl="#attributes"><SimpleData name="id">a-1</SimpleData><SimpleData name="name">Parcel &lt;7&gt; &amp; &quot;north&quot;</SimpleData>' +
          '<SimpleData name="description">Köy, &quot;east&quot; field</SimpleData><SimpleData name="n">3</SimpleData></SchemaData></ExtendedData></Placemark>',
        // A null is no value (left out).
        '<Placemark><name>b&amp;2</name><ExtendedData><SchemaData schemaUrl="#attributes"><SimpleData name="id">b&amp;2</SimpleData></SchemaData></ExtendedData>' +
          '<Point><coordinates>1,2</coordinates></Point></Placemark>',
        '</Document></kml>',
        '',
      ].join('\n'),
    );
  });
});

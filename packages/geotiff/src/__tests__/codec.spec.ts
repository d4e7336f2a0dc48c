/** The codec's pure parts: predictors, tile encoding and decoding, GDAL metadata, UTF-8, CRS math. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTile } from '../read/decode';
import { allocSamples, type SampleType } from '../tiff/samples';
import { decodeUtf8, encodeUtf8 } from '../tiff/text';
import { encodeTile } from '../write/encode';
import {
  gdalMetadataXml,
  geometryToMap,
  lonLatToMap,
  mapToLonLat,
  mapToPixel,
  parseGdalMetadata,
  pixelToMap,
  planCog,
} from '../index';
import { nodeCompression } from '../node';

describe('tile encoding', () => {
  const types: SampleType[] = [
    'uint8',
    'int8',
    'uint16',
    'int16',
    'uint32',
    'int32',
    'float32',
    'float64',
  ];
  it('decodes what it encodes, for every sample type, predictor and band count', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom(1, 2),
        fc.integer(),
        (type, bands, pred, seed) => {
          const float = type.startsWith('float');
          const predictor = (pred === 2 && float ? 3 : pred) as 1 | 2 | 3;
          const layout = planCog({
            width: 20,
            height: 20,
            bands,
            sampleType: type,
            tileSize: 16,
            geoTransform: [0, 1, 0, 0, 0, -1],
            epsg: 32633,
            predictor,
          });
          const a = allocSamples(type, 16 * 16 * bands);
          let s = seed;
          for (let i = 0; i < a.length; i++) {
            s = (Math.imul(s, 1103515245) + 12345) | 0;
            a[i] = float ? s / 65536 : s;
          }
          const encoded = encodeTile(layout, a, nodeCompression);
          const format = { compression: 8, predictor, sampleType: type, bands, littleEndian: true };
          expect(Array.from(decodeTile(encoded, format, 16, 16, nodeCompression, 't'))).toEqual(
            Array.from(a),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('GDAL metadata', () => {
  it('round-trips dataset items, band names, scale, offset and band items, escaped as GDAL does', () => {
    const md = {
      dataset: { SCENE_ID: 'A&B <1> "q"', ÉTÉ: 'ünïcødé ☀' },
      bands: [
        { description: 'B02', scale: 0.0001, offset: 0, items: { WAVELENGTH: '490' } },
        { description: 'N&IR' },
      ],
    };
    const xml = gdalMetadataXml(md)!;
    expect(xml).toContain('A&amp;amp;B &amp;lt;1&amp;gt; &amp;quot;q&amp;quot;');
    expect(parseGdalMetadata(xml, 2)).toEqual(md);
    expect(decodeUtf8(encodeUtf8(xml))).toBe(xml);
  });

  it('ignores other domains, bands out of range and malformed items', () => {
    const xml =
      '<GDALMetadata><Item name="A" domain="IMAGE_STRUCTURE">x</Item><Item name="B" sample="9">y</Item>' +
      '<Item sample="0">no name</Item><Item name="C">&#65;&#x42;&bogus;</Item><Item name="S" sample="0" role="scale">abc</Item></GDALMetadata>';
    expect(parseGdalMetadata(xml, 1)).toEqual({ dataset: { C: 'AB&bogus;' }, bands: [{}] });
  });

  it('decodes invalid UTF-8 to replacement characters', () => {
    expect(decodeUtf8(Uint8Array.from([0x61, 0xff, 0xc3, 0x28, 0x62]))).toBe('a\uFFFD\uFFFD(b');
  });
});

describe('georeferencing and CRS', () => {
  it('maps pixels to map coordinates and back, rotated or not', () => {
    for (const gt of [
      [500_000, 3, 0, 5_000_000, 0, -3],
      [300_000, 9.8, 1.2, 4_200_000, 1.5, -9.7],
    ] as const) {
      const [x, y] = pixelToMap(gt, 123.5, 77.25);
      const [c, r] = mapToPixel(gt, x, y);
      expect(c).toBeCloseTo(123.5, 9);
      expect(r).toBeCloseTo(77.25, 9);
    }
  });

  it('projects lon/lat into UTM north and south and areas into a raster CRS (densified)', () => {
    const [x, y] = lonLatToMap(32633, 15, 45);
    expect(x).toBeCloseTo(500_000, 3);
    expect(mapToLonLat(32633, x, y)[1]).toBeCloseTo(45, 8);
    expect(lonLatToMap(32719, -70.5, -33.4)[1]).toBeCloseTo(6_303_362.29, 1);
    expect(lonLatToMap(4326, 1, 2)).toEqual([1, 2]);
    expect(() => lonLatToMap(3857, 0, 0)).toThrow(/EPSG:3857/);
    const area = geometryToMap(
      {
        type: 'Polygon',
        coordinates: [
          [
            [15, 45],
            [15.02, 45],
            [15.02, 45.02],
            [15, 45],
          ],
        ],
      },
      32633,
    );
    expect(area.type).toBe('Polygon');
    const ring = (area as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring.length).toBeGreaterThan(4); // densified every 0.005 degrees
    expect(ring[0]![0]).toBeCloseTo(500_000, 3);
  });
});

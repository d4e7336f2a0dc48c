/**
 * Catalog records as a real service may send them, for the packed layout's property tests:
 * the spec's shape with odd values, shared values (a zone's WKT, extension lists), anything else.
 */
import fc from 'fast-check';
import type { CatalogRecordOut } from '../../writes';

export const wkt = (zone: number) =>
  `PROJCRS["WGS 84 / UTM zone ${zone}N",BASEGEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563]]],ID["EPSG",${32600 + zone}]]`;

/** Records as a real service may send them: the spec's shape, odd values, anything else. */
const property = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.double(),
  fc.constantFrom('2024-05-17T09:30:00.123456Z', '2024-05-17 09:30', 1715938200, '', null),
);
export const record = fc
  .record(
    {
      id: fc.oneof(fc.string({ minLength: 1 }), fc.integer({ min: 1 })),
      created_at: property,
      updated_at: property,
      task_id: fc.option(fc.string()),
      extra: fc.jsonValue(),
      details: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record(
            {
              id: property,
              collection: property,
              stac_extensions: fc.constantFrom(
                [
                  'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
                  'https://stac-extensions.github.io/view/v1.0.0/schema.json',
                ],
                [],
              ),
              geometry: fc.oneof(
                fc
                  .tuple(
                    fc.double({ min: -180, max: 179, noNaN: true }),
                    fc.double({ min: -90, max: 89, noNaN: true }),
                  )
                  .map(([x, y]) => ({
                    type: 'Polygon',
                    coordinates: [
                      [
                        [x, y],
                        [x + 1, y],
                        [x + 1, y + 1],
                        [x, y],
                      ],
                    ],
                  })),
                fc.jsonValue(),
              ),
              assets: fc.dictionary(
                fc.string(),
                fc.record({ href: fc.string(), roles: fc.array(fc.string()) }),
              ),
              properties: fc.record(
                {
                  datetime: property,
                  updated: property,
                  platform: property,
                  'eo:cloud_cover': property,
                  'view:sun_elevation': property,
                  'proj:wkt2': fc.integer({ min: 1, max: 3 }).map(wkt),
                  other: fc.jsonValue(),
                },
                { requiredKeys: [] },
              ),
            },
            { requiredKeys: ['id'] },
          ),
        },
        fc.jsonValue(),
      ),
    },
    { requiredKeys: ['id'] },
  )
  .map((r) => r as unknown as CatalogRecordOut);

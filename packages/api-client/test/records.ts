/**
 * Realistic catalog records (spec 2.10, full STAC details) for pagination tests and the paging
 * benchmark. Deterministic: record i is always the same.
 */
import type { z } from 'zod';
import type { CatalogRecord } from '@eo/domain';

export type CatalogRecordWire = z.input<typeof CatalogRecord>;

const WKT2 =
  'PROJCRS["WGS 84 / UTM zone 33N",BASEGEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563]]],CONVERSION["UTM zone 33N",METHOD["Transverse Mercator"]],CS[Cartesian,2],UNIT["metre",1]]';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** One record, ~3 KB of JSON like a real service sends. */
export function catalogRecord(i: number): CatalogRecordWire {
  const lon = -10 + (i % 200) * 0.1;
  const lat = 35 + ((i * 7) % 200) * 0.1;
  const t = Date.UTC(2024, 0, 1) + i * 3_600_000;
  const itemId = `aurora-1-${String(i).padStart(8, '0')}`;
  const ring = [
    [lon, lat],
    [lon + 0.1, lat],
    [lon + 0.1, lat + 0.1],
    [lon, lat + 0.1],
    [lon, lat],
  ];
  const href = (name: string) => `https://data.example.invalid/aurora/${itemId}/${name}.tif`;
  return {
    id: `cat-${String(i).padStart(8, '0')}`,
    area: 123_456.5 + i,
    bandset_id: 'bs-aurora-8',
    task_id: `tsk-${Math.floor(i / 4)}`,
    org_id: 'org-demo',
    delivery_status: 'SUCCESSFUL',
    created_at: iso(t + 60_000),
    updated_at: iso(t + 120_000),
    created_by: 'usr-demo-analyst',
    updated_by: 'usr-demo-analyst',
    details: {
      type: 'Feature',
      stac_version: '1.0.0',
      stac_extensions: [
        'https://stac-extensions.github.io/eo/v1.1.0/schema.json',
        'https://stac-extensions.github.io/projection/v1.1.0/schema.json',
        'https://stac-extensions.github.io/view/v1.0.0/schema.json',
        'https://stac-extensions.github.io/sat/v1.0.0/schema.json',
      ],
      id: itemId,
      collection: 'col-aurora-l2a',
      bbox: [lon, lat, lon + 0.1, lat + 0.1],
      geometry: { type: 'Polygon', coordinates: [ring] },
      links: [
        {
          href: `https://api.example.invalid/collections/col-aurora-l2a/items/${itemId}`,
          rel: 'self',
          type: 'application/geo+json',
          title: 'This item',
        },
        {
          href: 'https://api.example.invalid/collections/col-aurora-l2a',
          rel: 'collection',
          type: 'application/json',
          title: 'Aurora L2A',
        },
      ],
      assets: {
        visual: {
          href: href('visual'),
          type: 'image/tiff; application=geotiff; profile=cloud-optimized',
          title: 'True colour',
          roles: ['visual'],
        },
        B04: {
          href: href('B04'),
          type: 'image/tiff; application=geotiff',
          title: 'Red',
          roles: ['data'],
        },
        B08: {
          href: href('B08'),
          type: 'image/tiff; application=geotiff',
          title: 'NIR',
          roles: ['data'],
        },
        thumbnail: {
          href: href('thumb').replace('.tif', '.png'),
          type: 'image/png',
          title: 'Thumbnail',
          roles: ['thumbnail'],
        },
      },
      properties: {
        constellation: 'aurora',
        platform: 'aurora-1',
        instruments: ['msi'],
        created: iso(t + 30_000),
        updated: iso(t + 90_000),
        datetime: iso(t),
        'eo:cloud_cover': (i * 13) % 100,
        gsd: 3,
        'proj:epsg': 32633,
        'proj:wkt2': WKT2,
        'proj:shape': [10980, 10980],
        'proj:transform': [3, 0, 399960 + i, 0, -3, 4900020 - i, 0, 0, 1],
        'sat:orbit_state': i % 2 ? 'ascending' : 'descending',
        'sat:relative_orbit': i % 143,
        'sci:doi': '10.5555/aurora.l2a',
        'view:off_nadir': (i % 30) / 2,
        'view:satellite_look_angle': (i % 25) / 2,
        'view:sun_azimuth': 140 + (i % 40),
        'view:sun_elevation': 30 + (i % 30),
      },
    },
  };
}

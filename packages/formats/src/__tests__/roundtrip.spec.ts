/**
 * import → export → import, for every export format and for Shapefiles in three CRSs: names
 * and attributes come back, and every position within the stated tolerance:
 * - text formats (GeoJSON, KML, KMZ, CSV with WKT) and binary WGS 84 formats (Shapefile,
 *   GeoPackage): exact (1e-12°, doubles written in full);
 * - a Shapefile written in UTM 33N or Web Mercator and reprojected on import: 1e-7° (~1 cm).
 */
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import type { Position } from '@eo/domain';
import { exportFeatures, type ExportFormat } from '../export';
import { importFile } from '../import';
import type { ImportPreview } from '../types';
import { toShapefileZip } from '../write/shapefile';
import { EUROPEAN, maxDifference, WORLD } from './fixtures';

const EXTENSION: Record<ExportFormat, string> = {
  geojson: 'geojson',
  csv: 'csv',
  kml: 'kml',
  kmz: 'kmz',
  shp: 'zip',
  gpkg: 'gpkg',
};

function bytesOf(v: string | Uint8Array): Uint8Array {
  return typeof v === 'string' ? new TextEncoder().encode(v) : v;
}

function expectSame(preview: ImportPreview, features: typeof WORLD, tolerance: number): void {
  expect(preview.features.map((f) => f.name)).toEqual(features.map((f) => f.properties.name));
  preview.features.forEach((f, i) => {
    expect(f.problem, `${f.name}: ${f.problem}`).toBeNull();
    expect(maxDifference(f.area, features[i]!.geometry)).toBeLessThanOrEqual(tolerance);
  });
}

describe('round trips', () => {
  for (const format of ['geojson', 'kml', 'kmz', 'csv', 'shp', 'gpkg'] as const) {
    it(`${format}: export → import → export → import keeps names and positions (1e-12°)`, async () => {
      const first = await importFile(
        `areas.${EXTENSION[format]}`,
        bytesOf(exportFeatures(WORLD, format, { wkt: true })),
      );
      expectSame(first, WORLD, 1e-12);
      expect(first.features.every((f) => f.repairs.length === 0)).toBe(true);
      // The imported areas exported again read back the same (nothing drifts per round).
      const again = first.features.map((f) => ({ geometry: f.area, properties: { name: f.name } }));
      const second = await importFile(
        `again.${EXTENSION[format]}`,
        bytesOf(exportFeatures(again, format, { wkt: true })),
      );
      expectSame(second, WORLD, 1e-12);
    });
  }

  it('keeps attributes through Shapefile and GeoPackage (numbers stay numbers)', async () => {
    for (const format of ['shp', 'gpkg'] as const) {
      const back = await importFile(
        `a.${EXTENSION[format]}`,
        bytesOf(exportFeatures(WORLD, format)),
      );
      expect(back.features.map((f) => [f.properties.status, f.properties.area_ha])).toEqual(
        WORLD.map((f) => [f.properties.status, f.properties.area_ha]),
      );
    }
  });

  const CRSS = {
    'UTM 33N': {
      prj: 'PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]',
      features: EUROPEAN,
    },
    'Web Mercator (EPSG:3857)': {
      prj: 'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]',
      features: EUROPEAN,
    },
  };
  for (const [label, crs] of Object.entries(CRSS)) {
    it(`a Shapefile in ${label} is reprojected to WGS 84 (1e-7°)`, async () => {
      const forward = proj4('WGS84', crs.prj);
      const zip = toShapefileZip(crs.features, {
        name: 'parcels',
        crs: { prj: crs.prj, project: (p: Position) => forward.forward([p[0]!, p[1]!]) },
      });
      const back = await importFile('parcels.zip', zip);
      expect(back.sourceCrs).toMatch(/UTM|Mercator/);
      expectSame(back, crs.features, 1e-7);
    });
  }
});

/**
 * Import of a large zipped Shapefile: 100,000 cadastral parcels (irregular 20-vertex polygons
 * with a parcel id, a non-ASCII owner name and an area) in UTM 33N, as a ministry hands them
 * out, through `importFile`: unzip within the limits, .shp/.dbf read, reprojection to WGS 84,
 * every parcel checked as an area. Prints, from one run:
 *
 * - import time and parcels per second (target: 100,000 parcels in at most 30 s);
 * - the ratio against the same run's baseline, JSON.parse of the same parcels as GeoJSON text
 *   (WGS 84, the least work any import does: target at most 60x);
 * - peak RSS growth during the import (target at most 1,536 MB) and the file's size, zipped and
 *   inflated (~47 MB of .shp/.shx/.dbf at 100,000 parcels: the issue's 50 MB Shapefile).
 *
 * The file is generated in the run with @eo/formats' own Shapefile writer (deterministic).
 *
 *   bash scripts/pnpm.sh --filter @eo/formats bench          # 100,000 parcels
 *   bash scripts/pnpm.sh --filter @eo/formats bench:smoke    # 2,000 parcels, targets not enforced
 *   BENCH_PARCELS=20000 ... bench                             # another size
 */
import { reportVerdict } from '@eo/bench-kit';
import type { Position } from '@eo/domain';
import { unzipSync } from 'fflate';
import proj4 from 'proj4';
import { importFile, toGeoJson, toShapefileZip, type ExportFeature } from '../src/index';

const smoke = process.argv.includes('--smoke');
const PARCELS = smoke ? 2_000 : Number(process.env.BENCH_PARCELS ?? 100_000);
const VERTICES = 20;
const UTM_33N =
  'PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

const log = (s: string) => void process.stderr.write(`${s}\n`);
const mb = (bytes: number) => bytes / (1024 * 1024);

/** Parcels on a grid over Lower Austria: ~100 m across, radii varying by angle and parcel. */
function parcels(n: number): ExportFeature[] {
  const side = Math.ceil(Math.sqrt(n));
  const out: ExportFeature[] = [];
  for (let i = 0; i < n; i++) {
    const cx = 14.5 + (i % side) * 0.0015;
    const cy = 47.8 + Math.floor(i / side) * 0.001;
    const ring: Position[] = [];
    for (let k = 0; k < VERTICES; k++) {
      const a = (2 * Math.PI * k) / VERTICES;
      const r = 0.0005 * (1 + 0.2 * Math.sin(3 * a + i));
      ring.push([cx + r * Math.cos(a), cy + 0.7 * r * Math.sin(a)]);
    }
    ring.push(ring[0]!);
    out.push({
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: {
        parcel: `KG-${10_000 + i}`,
        owner: `Grünwald-Ökonomie ${i % 97}`,
        area_m2: 7_000 + (i % 500),
      },
    });
  }
  return out;
}

const features = parcels(PARCELS);
const forward = proj4('WGS84', UTM_33N);
const zip = toShapefileZip(features, {
  name: 'parcels',
  crs: { prj: UTM_33N, project: (p) => forward.forward([p[0]!, p[1]!]) },
});
const geojson = toGeoJson(features);
const inflated = Object.values(unzipSync(zip)).reduce((n, f) => n + f.length, 0);
log(
  `${PARCELS} parcels: Shapefile zip ${mb(zip.length).toFixed(1)} MB, GeoJSON ${mb(geojson.length).toFixed(1)} MB`,
);

// Baseline: the same parcels as GeoJSON text, parsed (median of three).
const parses: number[] = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const parsed = JSON.parse(geojson) as { features: unknown[] };
  parses.push(performance.now() - t0);
  if (parsed.features.length !== PARCELS) throw new Error('baseline parsed the wrong count');
}
const parseMs = parses.sort((a, b) => a - b)[1]!;

const rssBefore = process.resourceUsage().maxRSS * 1024;
const t0 = performance.now();
const preview = await importFile('parcels.zip', zip);
const importMs = performance.now() - t0;
const peakGrowth = Math.max(0, process.resourceUsage().maxRSS * 1024 - rssBefore);

const refused = preview.features.filter((f) => f.problem !== null);
if (preview.features.length !== PARCELS || refused.length > 0)
  throw new Error(
    `imported ${preview.features.length} parcels, ${refused.length} refused: ${refused[0]?.problem}`,
  );
log(`imported in ${(importMs / 1000).toFixed(2)} s (JSON.parse baseline ${parseMs.toFixed(0)} ms)`);

reportVerdict(
  `formats import (${PARCELS} parcels)`,
  [
    { what: 'import time', value: importMs / 1000, atMost: 30, unit: 's' },
    { what: 'parcels per second', value: PARCELS / (importMs / 1000), digits: 0 },
    {
      what: 'import / JSON.parse of the same GeoJSON',
      value: importMs / parseMs,
      atMost: 60,
      unit: '×',
    },
    {
      what: 'peak RSS growth during the import',
      value: mb(peakGrowth),
      atMost: 1536,
      unit: 'MB',
      digits: 0,
    },
    { what: 'Shapefile zip size', value: mb(zip.length), unit: 'MB', digits: 1 },
    { what: 'Shapefile size inflated', value: mb(inflated), unit: 'MB', digits: 1 },
  ],
  { smoke },
);

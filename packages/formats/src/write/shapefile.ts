/**
 * A zipped Shapefile of export features: .shp, .shx, .dbf (UTF-8, told by a .cpg), .prj. A
 * Shapefile holds one geometry type, so areas, lines and points go to one layer each
 * (`<name>`, `<name>_lines`, `<name>_points`); a feature without geometry is a null shape in
 * the first layer. Rings are written clockwise for outer rings and counter-clockwise for holes,
 * as the format wants. dBASE field names are at most 10 ASCII characters: longer or non-ASCII
 * names are shortened and numbered, the .dbf keeps the shortened ones (QGIS reads them so) and
 * `<layer>.fields.csv` in the zip maps each back to its attribute. A text longer than a .dbf
 * field's 254 bytes (a CRS's WKT) is left out, not cut; `shapefileNotes` says both in words.
 *
 * `crs` writes another CRS (tests make UTM and Web Mercator files): positions are projected
 * with its function and its WKT goes in the .prj.
 */
import { zipSync } from 'fflate';
import type { Geometry, Position } from '@eo/domain';
import { signedArea } from '../geometry/area';
import { toCsv } from './csv';
import type { ExportFeature, Scalar } from './feature';

export const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

export interface ShapefileCrs {
  readonly prj: string;
  readonly project: (p: Position) => Position;
}

type ShapeType = 0 | 1 | 3 | 5 | 8;
type Layer = { suffix: string; type: ShapeType; features: ExportFeature[] };

function kindOf(g: Geometry | null): 'area' | 'line' | 'point' | null {
  if (!g) return null;
  switch (g.type) {
    case 'Polygon':
    case 'MultiPolygon':
      return 'area';
    case 'LineString':
    case 'MultiLineString':
      return 'line';
    case 'Point':
    case 'MultiPoint':
      return 'point';
    case 'GeometryCollection': {
      const kinds = g.geometries.map(kindOf);
      return kinds.includes('area')
        ? 'area'
        : kinds.includes('line')
          ? 'line'
          : kinds.includes('point')
            ? 'point'
            : null;
    }
  }
}

/** Parts of one kind (a collection's other members cannot go in this layer and are left out). */
function partsOf(g: Geometry, kind: 'area' | 'line' | 'point'): Position[][][] {
  switch (g.type) {
    case 'Polygon':
      return [g.coordinates];
    case 'MultiPolygon':
      return g.coordinates;
    case 'LineString':
      return [[g.coordinates]];
    case 'MultiLineString':
      return [g.coordinates];
    case 'Point':
      return [[[g.coordinates]]];
    case 'MultiPoint':
      return [[g.coordinates]];
    case 'GeometryCollection':
      return g.geometries.filter((m) => kindOf(m) === kind).flatMap((m) => partsOf(m, kind));
  }
}

/** Point lists of one record: rings turned to the Shapefile's orientation for areas. */
function recordParts(
  g: Geometry,
  kind: 'area' | 'line' | 'point',
  project: (p: Position) => Position,
): Position[][] {
  const polys = partsOf(g, kind);
  if (kind !== 'area') return polys.flat().map((l) => l.map(project));
  return polys.flatMap((rings) =>
    rings.map((r, k) => {
      const ps = r.map(project);
      const clockwise = signedArea(ps) < 0;
      return clockwise === (k === 0) ? ps : ps.reverse();
    }),
  );
}

class Bytes {
  readonly view: DataView;
  readonly bytes: Uint8Array;
  at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }
  i32be(v: number) {
    this.view.setInt32(this.at, v, false);
    this.at += 4;
  }
  i32(v: number) {
    this.view.setInt32(this.at, v, true);
    this.at += 4;
  }
  f64(v: number) {
    this.view.setFloat64(this.at, v, true);
    this.at += 8;
  }
}

function bboxOf(points: readonly Position[]): [number, number, number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    x0 = Math.min(x0, p[0]!);
    y0 = Math.min(y0, p[1]!);
    x1 = Math.max(x1, p[0]!);
    y1 = Math.max(y1, p[1]!);
  }
  return Number.isFinite(x0) ? [x0, y0, x1, y1] : [0, 0, 0, 0];
}

function writeShp(
  layer: Layer,
  project: (p: Position) => Position,
): { shp: Uint8Array; shx: Uint8Array } {
  const records = layer.features.map((f) => {
    const kind = kindOf(f.geometry);
    const parts = f.geometry && kind ? recordParts(f.geometry, kind, project) : [];
    const points = parts.flat();
    if (points.length === 0) return { type: 0 as ShapeType, parts, points, size: 4 };
    if (layer.type === 1)
      return { type: 1 as ShapeType, parts, points: points.slice(0, 1), size: 20 };
    if (layer.type === 8)
      return { type: 8 as ShapeType, parts, points, size: 40 + points.length * 16 };
    return { type: layer.type, parts, points, size: 44 + parts.length * 4 + points.length * 16 };
  });
  const total = 100 + records.reduce((n, r) => n + 8 + r.size, 0);
  const shp = new Bytes(total);
  const shx = new Bytes(100 + records.length * 8);
  const all = bboxOf(records.flatMap((r) => r.points));
  for (const [out, length] of [
    [shp, total],
    [shx, 100 + records.length * 8],
  ] as const) {
    out.i32be(9994);
    out.at = 24;
    out.i32be(length / 2);
    out.i32(1000);
    out.i32(layer.type);
    all.forEach((v) => out.f64(v));
    out.at = 100;
  }
  records.forEach((r, i) => {
    shx.i32be(shp.at / 2);
    shx.i32be(r.size / 2);
    shp.i32be(i + 1);
    shp.i32be(r.size / 2);
    shp.i32(r.type);
    if (r.type === 0) return;
    if (r.type === 1) {
      shp.f64(r.points[0]![0]!);
      shp.f64(r.points[0]![1]!);
      return;
    }
    bboxOf(r.points).forEach((v) => shp.f64(v));
    if (r.type !== 8) shp.i32(r.parts.length);
    shp.i32(r.points.length);
    if (r.type !== 8) {
      let start = 0;
      for (const p of r.parts) {
        shp.i32(start);
        start += p.length;
      }
    }
    for (const p of r.points) {
      shp.f64(p[0]!);
      shp.f64(p[1]!);
    }
  });
  return { shp: shp.bytes, shx: shx.bytes };
}

interface Field {
  readonly key: string;
  readonly name: string;
  readonly type: 'C' | 'N' | 'L';
  readonly length: number;
  readonly decimals: number;
}

const encoder = new TextEncoder();

/** At most `max` bytes of UTF-8, cut at a character boundary. */
function utf8Within(s: string, max: number): Uint8Array {
  const bytes = encoder.encode(s);
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** The most bytes a dBASE character field holds. */
const MAX_C_FIELD = 254;

/** What a layer's .dbf holds: its fields, the names it had to cut, the attributes left out. */
interface FieldPlan {
  readonly fields: readonly Field[];
  /** Attributes whose name the .dbf could not keep (over 10 ASCII characters, or taken). */
  readonly renamed: ReadonlyArray<{ readonly key: string; readonly name: string }>;
  /** Attributes with a value longer than a field holds: left out rather than cut. */
  readonly leftOut: ReadonlyArray<{ readonly key: string; readonly bytes: number }>;
}

function fieldPlan(features: readonly ExportFeature[]): FieldPlan {
  const keys: string[] = [];
  for (const f of features)
    for (const k of Object.keys(f.properties)) if (!keys.includes(k)) keys.push(k);
  const used = new Set<string>();
  const fields: Field[] = [];
  const renamed: Array<{ key: string; name: string }> = [];
  const leftOut: Array<{ key: string; bytes: number }> = [];
  for (const key of keys) {
    if (fields.length === 255) break;
    const values = features
      .map((f) => f.properties[key])
      .filter((v) => v !== null && v !== undefined);
    const booleans = values.length > 0 && values.every((v) => typeof v === 'boolean');
    const numbers =
      values.length > 0 && values.every((v) => typeof v === 'number' && Math.abs(v) < 1e15);
    const longest = Math.max(1, ...values.map((v) => encoder.encode(String(v)).length));
    // A cut value (a CRS's WKT, a long description) would be read as if whole: left out.
    if (!booleans && !numbers && longest > MAX_C_FIELD) {
      leftOut.push({ key, bytes: longest });
      continue;
    }
    const base = key.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 10) || 'field';
    let name = base;
    for (let n = 1; used.has(name.toUpperCase()); n++)
      name = `${base.slice(0, 10 - String(n).length)}${n}`;
    used.add(name.toUpperCase());
    if (name !== key) renamed.push({ key, name });
    if (booleans) fields.push({ key, name, type: 'L', length: 1, decimals: 0 });
    else if (numbers) {
      const decimals = values.every((v) => Number.isInteger(v)) ? 0 : 8;
      fields.push({ key, name, type: 'N', length: decimals ? 24 : 18, decimals });
    } else fields.push({ key, name, type: 'C', length: longest, decimals: 0 });
  }
  return { fields, renamed, leftOut };
}

function dbfValue(field: Field, v: Scalar | undefined): Uint8Array {
  const out = new Uint8Array(field.length).fill(0x20);
  if (v === null || v === undefined) return out;
  if (field.type === 'L') out[0] = v ? 0x54 : 0x46;
  else if (field.type === 'N') {
    const s = (v as number).toFixed(field.decimals).slice(0, field.length);
    out.set(encoder.encode(s), field.length - s.length);
  } else out.set(utf8Within(String(v), field.length));
  return out;
}

function writeDbf(features: readonly ExportFeature[], fields: readonly Field[]): Uint8Array {
  const headerSize = 32 + fields.length * 32 + 1;
  const recordSize = 1 + fields.reduce((n, f) => n + f.length, 0);
  const out = new Uint8Array(headerSize + features.length * recordSize + 1);
  const view = new DataView(out.buffer);
  const now = new Date();
  out[0] = 0x03;
  out[1] = now.getUTCFullYear() - 1900;
  out[2] = now.getUTCMonth() + 1;
  out[3] = now.getUTCDate();
  view.setUint32(4, features.length, true);
  view.setUint16(8, headerSize, true);
  view.setUint16(10, recordSize, true);
  fields.forEach((f, i) => {
    const at = 32 + i * 32;
    out.set(encoder.encode(f.name), at);
    out[at + 11] = f.type.charCodeAt(0);
    out[at + 16] = f.length;
    out[at + 17] = f.decimals;
  });
  out[headerSize - 1] = 0x0d;
  let at = headerSize;
  for (const feature of features) {
    out[at++] = 0x20;
    for (const f of fields) {
      out.set(dbfValue(f, feature.properties[f.key]), at);
      at += f.length;
    }
  }
  out[at] = 0x1a;
  return out;
}

/** The layers a Shapefile export writes: areas, lines and points apart (nulls with the first). */
function layersOf(features: readonly ExportFeature[]): Layer[] {
  const byKind = {
    area: [] as ExportFeature[],
    line: [] as ExportFeature[],
    point: [] as ExportFeature[],
  };
  const nulls: ExportFeature[] = [];
  for (const f of features) {
    const k = kindOf(f.geometry);
    (k ? byKind[k] : nulls).push(f);
  }
  const layers: Layer[] = (
    [
      { suffix: '', type: 5, features: byKind.area },
      { suffix: '_lines', type: 3, features: byKind.line },
      { suffix: '_points', type: 1, features: byKind.point },
    ] satisfies Layer[]
  ).filter((l) => l.features.length > 0);
  if (layers.length === 0) layers.push({ suffix: '', type: 5, features: [] });
  layers[0]!.features.push(...nulls);
  return layers;
}

const safeName = (name: string | undefined) =>
  (name ?? 'features').replace(/[^\p{L}\p{N}_-]/gu, '_');

/** `<layer>.fields.csv`: each .dbf field and the attribute it holds, or why one is not there. */
function fieldsTable(plan: FieldPlan): string {
  const rows = [
    ...plan.fields.map((f) => [f.name, f.key, f.name === f.key ? '' : 'name cut to 10 characters']),
    ...plan.leftOut.map((l) => [
      '',
      l.key,
      `left out: values up to ${l.bytes} bytes, a .dbf field holds ${MAX_C_FIELD}`,
    ]),
  ];
  return toCsv(['field', 'attribute', 'note'], rows);
}

export function toShapefileZip(
  features: readonly ExportFeature[],
  options: { name?: string; crs?: ShapefileCrs } = {},
): Uint8Array {
  const name = safeName(options.name);
  const project = options.crs?.project ?? ((p: Position) => p);
  const files: Record<string, Uint8Array> = {};
  for (const layer of layersOf(features)) {
    const base = `${name}${layer.suffix}`;
    const plan = fieldPlan(layer.features);
    const { shp, shx } = writeShp(layer, project);
    files[`${base}.shp`] = shp;
    files[`${base}.shx`] = shx;
    files[`${base}.dbf`] = writeDbf(layer.features, plan.fields);
    files[`${base}.prj`] = encoder.encode(options.crs?.prj ?? WGS84_PRJ);
    files[`${base}.cpg`] = encoder.encode('UTF-8');
    // The names the .dbf had to cut, documented beside it (QGIS shows the cut ones).
    if (plan.renamed.length > 0 || plan.leftOut.length > 0)
      files[`${base}.fields.csv`] = encoder.encode(fieldsTable(plan));
  }
  return zipSync(files, { level: 6, mtime: new Date('2000-01-01T00:00:00Z') });
}

/**
 * What a Shapefile export could not keep as it is, in words for the user: attribute names cut
 * to the .dbf's 10 characters (the mapping is in `<layer>.fields.csv` in the zip) and
 * attributes left out because a value is longer than a .dbf field holds.
 */
export function shapefileNotes(
  features: readonly ExportFeature[],
  options: { name?: string } = {},
): string[] {
  const name = safeName(options.name);
  const renamed = new Map<string, string>();
  const leftOut = new Map<string, number>();
  for (const layer of layersOf(features)) {
    const plan = fieldPlan(layer.features);
    for (const r of plan.renamed) renamed.set(r.key, r.name);
    for (const l of plan.leftOut) leftOut.set(l.key, Math.max(l.bytes, leftOut.get(l.key) ?? 0));
  }
  const notes: string[] = [];
  if (renamed.size > 0)
    notes.push(
      `Shapefile field names hold 10 characters: ${[...renamed]
        .map(([k, n]) => `${k} → ${n}`)
        .join(', ')} (listed in ${name}.fields.csv in the zip).`,
    );
  if (leftOut.size > 0)
    notes.push(
      `Left out of the Shapefile, whose fields hold ${MAX_C_FIELD} bytes: ${[...leftOut.keys()].join(', ')} (the GeoPackage and GeoJSON exports keep them whole).`,
    );
  return notes;
}

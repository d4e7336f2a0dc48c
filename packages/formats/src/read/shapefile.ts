/**
 * A zipped Shapefile (.shp + .dbf, with its .prj and .cpg): read with `shapefile` (ring
 * nesting, dBASE attributes in the .cpg's encoding, windows-1252 without one), reprojected from
 * the .prj's CRS to WGS 84 with proj4. Several layers in one zip are read one after another.
 * Without a .prj nothing is guessed silently: a layer whose coordinates all fit longitude/latitude
 * is read as WGS 84 with a warning the preview shows; one whose coordinates do not (UTM metres,
 * say) is refused, naming the missing .prj, since no CRS can be told from the numbers alone.
 */
import { open } from 'shapefile';
import type { Geometry } from '@eo/domain';
import { orientRfc7946 } from '../geometry/area';
import { crsName, firstOutsideLonLat, isWgs84, mapPositions, toWgs84 } from '../geometry/reproject';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import { makeCounter } from './counter';
import { flatProperties } from './properties';
import { utf8, type ReadResult } from './reader';
import { entryParts, unzipWithin } from './zip';

const PARTS = ['shp', 'dbf', 'prj', 'cpg'];

export async function readShapefileZip(
  bytes: Uint8Array,
  limits: ImportLimits,
): Promise<ReadResult> {
  const files = unzipWithin(bytes, limits, (name) => PARTS.includes(entryParts(name).ext));
  const layers = new Map<string, Map<string, Uint8Array>>();
  for (const [name, data] of files) {
    if (name.startsWith('__MACOSX/')) continue;
    const { base, ext } = entryParts(name);
    const key = base.toLowerCase();
    if (!layers.has(key)) layers.set(key, new Map());
    layers.get(key)!.set(ext, data);
  }
  const shps = [...layers.entries()].filter(([, parts]) => parts.has('shp'));
  if (shps.length === 0) throw new Error('the zip holds no .shp file');
  const count = makeCounter(limits);
  const features: RawFeature[] = [];
  const warnings: string[] = [];
  let sourceCrs: string | null = null;
  for (const [base, parts] of shps.sort(([a], [b]) => a.localeCompare(b))) {
    const prj = parts.get('prj') ? utf8(parts.get('prj')!).trim() : '';
    let project: ReturnType<typeof toWgs84> | null = null;
    if (prj && !isWgs84(prj)) {
      try {
        project = toWgs84(prj);
      } catch (e) {
        throw new Error(`${base}.prj: a CRS proj4 cannot read (${(e as Error).message})`);
      }
      sourceCrs = crsName(prj);
    }
    const encoding = dbfEncoding(parts.get('cpg') ? utf8(parts.get('cpg')!) : '');
    const dbf = parts.get('dbf');
    const source = await open(
      toArrayBuffer(parts.get('shp')!),
      dbf ? toArrayBuffer(dbf) : undefined,
      {
        encoding,
      },
    );
    const first = features.length;
    for (;;) {
      const next = await source.read();
      if (next.done) break;
      // `shapefile` builds well-formed GeoJSON from the records (null for a null shape).
      let geometry = (next.value.geometry as Geometry | null) ?? null;
      if (geometry && project) geometry = mapPositions(geometry, project);
      if (geometry) geometry = orientRfc7946(geometry);
      count(geometry);
      features.push({ geometry, properties: flatProperties(next.value.properties) });
    }
    if (!prj) warnings.push(withoutPrj(base, features.slice(first)));
  }
  return { features, sourceCrs, warnings };
}

/** The warning for a layer without a .prj read as lon/lat; throws when its numbers cannot be. */
function withoutPrj(base: string, features: readonly RawFeature[]): string {
  for (const f of features) {
    const outside = f.geometry && firstOutsideLonLat(f.geometry);
    if (outside)
      throw new Error(
        `${base}.shp has no .prj and its coordinates are not longitude/latitude (${outside.join(', ')}): add the .prj that came with it to the zip`,
      );
  }
  return `${base}.shp: no .prj: read as WGS 84 lon/lat`;
}

/**
 * The .dbf's text encoding from the .cpg as tools write it ("UTF-8", "ANSI 1252", "1252",
 * "ISO-8859-1", "65001"); without one, or with one no decoder knows, windows-1252 (what a
 * Shapefile without a .cpg has been since dBASE).
 */
export function dbfEncoding(cpg: string): string {
  const c = cpg.trim().toLowerCase();
  if (/utf-?8|65001/.test(c)) return 'utf-8';
  const windows = /^(ansi\s*|cp|windows-)?(125\d)$/.exec(c);
  if (windows) return `windows-${windows[2]}`;
  const iso = /8859-?(\d+)/.exec(c);
  if (iso) return `iso-8859-${iso[1]}`;
  try {
    return c ? new TextDecoder(c).encoding : 'windows-1252';
  } catch {
    return 'windows-1252';
  }
}

function toArrayBuffer(u: Uint8Array): ArrayBuffer {
  return u.buffer.slice(u.byteOffset, u.byteOffset + u.byteLength) as ArrayBuffer;
}

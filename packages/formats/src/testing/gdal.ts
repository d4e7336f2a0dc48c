/**
 * GDAL, the judge of the geospatial files we write (tests only; `scripts/system-deps.sh`
 * installs it): what `ogrinfo` lists of a file's layers, and the GeoPackage validator of GDAL's
 * Python samples, run with Debian's Python (the one GDAL's bindings are installed for).
 */
import { execFileSync } from 'node:child_process';

/** Each layer `ogrinfo -so -al` lists: its name, geometry type as GDAL names it, and count. */
export interface OgrLayer {
  readonly name: string;
  readonly geometry: string;
  readonly count: number;
}

const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });

export function ogrLayers(file: string): OgrLayer[] {
  const out = run('ogrinfo', ['-ro', '-so', '-al', file]);
  const layers: OgrLayer[] = [];
  for (const block of out.split(/^Layer name: /m).slice(1)) {
    const name = block.split('\n', 1)[0]!.trim();
    const geometry = /^Geometry: (.+)$/m.exec(block)?.[1]?.trim() ?? '';
    const count = Number(/^Feature Count: (\d+)$/m.exec(block)?.[1] ?? NaN);
    layers.push({ name, geometry, count });
  }
  return layers;
}

/** GDAL's GeoPackage validator: '' when the file conforms, else what it says is wrong. */
export function gpkgProblems(file: string): string {
  try {
    run('/usr/bin/python3', ['-m', 'osgeo_utils.samples.validate_gpkg', file]);
    return '';
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return `${err.stdout ?? ''}${err.stderr ?? ''}`.trim() || err.message;
  }
}

/** Each layer's attribute fields as GDAL types them (`ogrinfo -so -al`: `name: Integer (0.0)`). */
export function ogrFields(file: string): Record<string, Record<string, string>> {
  const out = run('ogrinfo', ['-ro', '-so', '-al', file]);
  const layers: Record<string, Record<string, string>> = {};
  for (const block of out.split(/^Layer name: /m).slice(1)) {
    const name = block.split('\n', 1)[0]!.trim();
    const fields: Record<string, string> = {};
    // Field lines follow the CRS and its axis mapping: `<name>: <Type> (<width>.<precision>)`.
    const after = block.split(/^Data axis to CRS axis mapping:.*$/m).at(-1) ?? block;
    for (const m of after.matchAll(/^(.+?): (\w+(?:\(\w+\))?) \(\d+\.\d+\)$/gm))
      fields[m[1]!] = m[2]!;
    layers[name] = fields;
  }
  return layers;
}

/** Each feature's values as GDAL prints them (`ogrinfo -al -q`: `  name (Type) = value`). */
export function ogrValues(file: string): Array<Record<string, string>> {
  const out = run('ogrinfo', ['-ro', '-al', '-q', file]);
  return out
    .split(/^OGRFeature\(.*\):\d+$/m)
    .slice(1)
    .map((block) => {
      const values: Record<string, string> = {};
      for (const m of block.matchAll(/^ {2}(.+?) \((\w+(?:\(\w+\))?)\) = (.*)$/gm))
        values[m[1]!] = m[3]!;
      return values;
    });
}

/**
 * `@eo/geotiff/testing`: GDAL as the judge of the rasters we write and serve (tests only, Node
 * only; never needed by `npm start`). GDAL comes from `scripts/system-deps.sh` (gdal-bin,
 * python3-gdal run with Debian's /usr/bin/python3).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const TIMEOUT_MS = 120_000;

function need(): void {
  if (!fs.existsSync('/usr/bin/gdalinfo'))
    throw new Error('GDAL is missing: run `bash scripts/system-deps.sh` (gdal-bin, python3-gdal)');
}

async function tool(cmd: string, args: readonly string[], input?: string): Promise<string> {
  need();
  const child = run(cmd, [...args], {
    timeout: TIMEOUT_MS,
    maxBuffer: 256 << 20,
    encoding: 'utf8',
  });
  if (input !== undefined) {
    child.child.stdin!.end(input);
  }
  const { stdout } = await child;
  return stdout;
}

/** `gdalinfo -json` of a file (with `-stats` computing statistics when asked). */
export async function gdalInfo(file: string, opts: { stats?: boolean } = {}): Promise<GdalInfo> {
  const out = await tool('gdalinfo', ['-json', ...(opts.stats ? ['-stats'] : []), file]);
  return JSON.parse(out) as GdalInfo;
}

export interface GdalInfo {
  size: [number, number];
  geoTransform?: number[];
  coordinateSystem?: { wkt: string };
  stac?: { 'proj:epsg'?: number | null };
  metadata: Record<string, Record<string, string>>;
  bands: {
    band: number;
    block: [number, number];
    type: string;
    description?: string;
    noDataValue?: number;
    overviews?: { size: [number, number] }[];
    offset?: number;
    scale?: number;
    metadata?: Record<string, Record<string, string>>;
  }[];
}

/** GDAL's COG validator (`validate_cloud_optimized_geotiff`, full check: leaders and trailers too). */
export async function validateCog(file: string): Promise<{ valid: boolean; output: string }> {
  need();
  try {
    const out = await tool(PYTHON, [
      '-m',
      'osgeo_utils.samples.validate_cloud_optimized_geotiff',
      '--full-check=yes',
      file,
    ]);
    return { valid: /is a valid cloud optimized GeoTIFF/.test(out), output: out };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return { valid: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message };
  }
}

/**
 * Every band's value at map positions in the raster's CRS (`gdallocationinfo -geoloc
 * -valonly`, positions read from stdin), or at pixel positions with `pixel: true`; `level`:
 * our level index (0 full resolution, 1.. overviews).
 */
export async function gdalLocationValues(
  file: string,
  points: readonly (readonly [number, number])[],
  opts: { pixel?: boolean; level?: number } = {},
): Promise<number[][]> {
  const info = await gdalInfo(file);
  const bands = info.bands.length;
  const args = ['-valonly', ...(opts.pixel ? [] : ['-geoloc'])];
  if (opts.level) args.push('-overview', String(opts.level));
  const input = points.map(([x, y]) => `${x} ${y}`).join('\n') + '\n';
  const out = (await tool('gdallocationinfo', [...args, file], input)).split('\n');
  return points.map((_, i) => out.slice(i * bands, (i + 1) * bands).map(Number));
}

/** Runs `gdal_translate` with these arguments. */
export async function gdalTranslate(args: readonly string[]): Promise<void> {
  await tool('gdal_translate', ['-q', ...args]);
}

/** Runs a Python snippet with GDAL's bindings (osgeo) available; its stdout. */
export async function gdalPython(code: string): Promise<string> {
  return tool(PYTHON, ['-c', code]);
}

/**
 * The pixels of a raster (or a window of it, or an overview: `level` as our level index, 0 full
 * resolution) as GDAL reads them: one array of numbers per band, row-major (GDAL's
 * ReadRaster as Float64).
 */
export async function gdalPixels(
  file: string,
  opts: { srcwin?: readonly [number, number, number, number]; level?: number } = {},
): Promise<{ width: number; height: number; bands: number[][] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdal-pixels-'));
  try {
    const out = path.join(dir, 'out.raw');
    const code = [
      'import sys, struct',
      'from osgeo import gdal',
      'gdal.UseExceptions()',
      `ds = gdal.Open(${JSON.stringify(file)})`,
      `level = ${opts.level ?? 0}`,
      `win = ${opts.srcwin ? `[${opts.srcwin.join(',')}]` : 'None'}`,
      'bands = [ds.GetRasterBand(i + 1) for i in range(ds.RasterCount)]',
      'if level: bands = [b.GetOverview(level - 1) for b in bands]',
      'x, y, w, h = win or [0, 0, bands[0].XSize, bands[0].YSize]',
      `with open(${JSON.stringify(out)}, 'wb') as f:`,
      '    f.write(struct.pack("<ii", w, h))',
      '    for b in bands: f.write(b.ReadRaster(x, y, w, h, buf_type=gdal.GDT_Float64))',
    ].join('\n');
    await tool(PYTHON, ['-c', code]);
    const buf = fs.readFileSync(out);
    const width = buf.readInt32LE(0);
    const height = buf.readInt32LE(4);
    const all = new Float64Array(buf.buffer.slice(buf.byteOffset + 8, buf.byteOffset + buf.length));
    const n = width * height;
    return {
      width,
      height,
      bands: Array.from({ length: all.length / n }, (_, b) =>
        Array.from(all.subarray(b * n, (b + 1) * n)),
      ),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

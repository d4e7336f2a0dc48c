/** Writes export features in the chosen format to stdout or to `--out FILE`. */
import fs from 'node:fs';
import { CliFailure } from '../context';
import { resolvePath, type CliIo } from '../io';
import type { ExportFeature } from './feature';
import { toGeoJson } from './geojson';
import { toKml } from './kml';
import { featuresToCsv } from './table';

export const EXPORT_FORMATS = ['geojson', 'csv', 'kml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(v: string | undefined): v is ExportFormat {
  return (EXPORT_FORMATS as readonly (string | undefined)[]).includes(v);
}

export function exportText(
  features: readonly ExportFeature[],
  format: ExportFormat,
  options: { wkt: boolean },
): string {
  if (format === 'geojson') return toGeoJson(features);
  if (format === 'kml') return toKml(features);
  return featuresToCsv(features, options.wkt);
}

/** To the file (written whole, then renamed: no half file is left by a failure) or stdout. */
export function writeExport(io: CliIo, text: string, out: string | undefined): void {
  if (out === undefined || out === '-') {
    io.stdout.write(text);
    return;
  }
  const file = resolvePath(io, out);
  const partial = `${file}.partial`;
  try {
    fs.writeFileSync(partial, text, 'utf8');
    fs.renameSync(partial, file);
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw new CliFailure(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/**
 * Exports of records as field files: the backend writes them from the mirror (`files.export`,
 * @eo/formats; never here). In Electron main has saved the file through a save dialog
 * (`savedTo`); in browser mode the page downloads the bytes it got.
 */
import { EXPORT_FORMATS, type ExportFormat } from '@eo/domain';
import type { ExportSource } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { downloadFile } from '../../ui/download-file';

/** What the format menu says of each format. */
export const FORMAT_LABELS: Record<ExportFormat, string> = {
  geojson: 'GeoJSON',
  kml: 'KML',
  kmz: 'KMZ (Google Earth)',
  shp: 'Shapefile (zip)',
  gpkg: 'GeoPackage',
  csv: 'CSV',
};
export const FORMATS: readonly ExportFormat[] = EXPORT_FORMATS;

export type ExportOutcome = { ok: true; message: string } | { ok: false; message: string };

const count = (n: number) => `${n} feature${n === 1 ? '' : 's'}`;

/** Exports `source` as `format`: saved (Electron) or downloaded (browser mode), said in words. */
export async function exportRecords(
  source: ExportSource,
  format: ExportFormat,
  /** CSV: each geometry as WKT (the default: a CSV without it has lost the places). */
  wkt = true,
): Promise<ExportOutcome> {
  try {
    const file = await useBridge().call('files.export', {
      source,
      format,
      ...(format === 'csv' && !wkt ? { wkt: false } : {}),
    });
    if (file.savedTo === null) return { ok: true, message: 'Not saved: the dialog was cancelled.' };
    // What the format could not keep (a Shapefile's cut field names) follows what was done.
    const notes = file.notes?.length ? ` ${file.notes.join(' ')}` : '';
    if (file.savedTo !== undefined)
      return { ok: true, message: `Saved ${count(file.features)} to ${file.savedTo}.${notes}` };
    downloadFile(file);
    return { ok: true, message: `Downloaded ${file.fileName} (${count(file.features)}).${notes}` };
  } catch (err) {
    return { ok: false, message: `Not exported: ${readableError(err).message}` };
  }
}

/**
 * Exports of an offline raster as a GeoTIFF (`rasters.export`): the window as stored, or the
 * index the map draws (float32, NaN = nodata), written by the backend. In Electron main has
 * saved it through a save dialog (`savedTo`); in browser mode the page downloads it from the
 * export route (a link it clicks: the bytes never pass through the page's memory).
 */
import type { ExportedRaster, RasterExportRequest } from '../../../shared/contract';
import { formatBytes } from '../../format/units';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import type { ExportOutcome } from '../file-export/export-file';
import { rasterExportUrl } from './raster-url';

/** Starts the browser's download of `url` as `fileName`. */
function download(url: string, fileName: string, doc: Document): void {
  const a = doc.createElement('a');
  a.href = url;
  a.download = fileName;
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
}

/** What happened to an export, in words. */
export function exportOutcome(file: ExportedRaster, doc: Document = document): ExportOutcome {
  const size = formatBytes(file.bytes);
  if (file.savedTo === null) return { ok: true, message: 'Not saved: the dialog was cancelled.' };
  if (file.savedTo !== undefined)
    return { ok: true, message: `Saved ${file.fileName} (${size}) to ${file.savedTo}.` };
  const url = rasterExportUrl(file.exportId);
  if (!url) return { ok: false, message: 'Not exported: this window cannot download files.' };
  download(url, file.fileName, doc);
  return { ok: true, message: `Downloaded ${file.fileName} (${size}).` };
}

/** Exports a stored raster or its index: saved (Electron) or downloaded (browser mode). */
export async function exportRaster(request: RasterExportRequest): Promise<ExportOutcome> {
  try {
    return exportOutcome(await useBridge().call('rasters.export', request));
  } catch (err) {
    return { ok: false, message: `Not exported: ${readableError(err).message}` };
  }
}

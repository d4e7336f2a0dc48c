/**
 * Electron's save of a raster export (`rasters.export`): the backend wrote the GeoTIFF (or
 * names the stored window) and answers its export id; main asks where to save it (the save
 * dialog, on the app window) and copies the file there itself, so the bytes (often hundreds of
 * megabytes) never cross the bridge. The page gets `savedTo` (null: the dialog was cancelled).
 * Browser mode has no main: the page downloads the file from its route. Electron's dialog, the
 * copy and the backend's file lookup come in as arguments (tests mock them).
 */
import path from 'node:path';
import type { CallResult, ExportedRaster } from '../shared/contract';
import type { RasterExportFile } from './backend-protocol';
import type { SaveDeps } from './save-export';

type Call = (method: string, input: unknown) => Promise<CallResult<unknown>>;

export interface RasterSaveDeps extends Pick<SaveDeps, 'showSaveDialog' | 'defaultDir'> {
  /** The backend's file of an export (BackendHost.rasterExportFile). */
  exportFile(exportId: string): Promise<RasterExportFile | null>;
  copyFile(from: string, to: string): Promise<void>;
}

/** `call` with `rasters.export` answers saved through the dialog; other methods as they are. */
export function withRasterExportSaving(call: Call, deps: RasterSaveDeps): Call {
  return async (method, input) => {
    const result = await call(method, input);
    if (method !== 'rasters.export' || !result.ok) return result;
    const exported = result.value as ExportedRaster;
    const fail = (message: string): CallResult<unknown> => ({
      ok: false,
      error: { code: 'internal', message },
    });
    const source = await deps.exportFile(exported.exportId);
    if (!source) return fail('The export is no longer there: export it again.');
    const choice = await deps.showSaveDialog({
      title: 'Save the GeoTIFF',
      defaultPath: path.join(deps.defaultDir(), exported.fileName),
      filters: [{ name: 'GeoTIFF', extensions: ['tif', 'tiff'] }],
    });
    if (choice.canceled || !choice.filePath)
      return { ok: true, value: { ...exported, savedTo: null } };
    try {
      await deps.copyFile(source.file, choice.filePath);
    } catch (e) {
      return fail(
        `Could not save ${choice.filePath}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    return { ok: true, value: { ...exported, savedTo: choice.filePath } };
  };
}

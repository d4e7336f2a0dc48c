/**
 * Electron's save of an export (`files.export`), a field package (`packages.share`), a handover
 * file (`outbox.handOver`) or a job's results (`jobs.results`): the backend writes the file, main
 * asks where
 * to save it (the save dialog, on the app window) and writes it there; the page gets the file's
 * description with `savedTo` (null: the dialog was cancelled) and no bytes. Browser mode has no
 * main: the page downloads the bytes itself. Electron's dialog and the file system come in as
 * arguments (tests mock them).
 */
import path from 'node:path';
import type { CallResult, ExportedFile } from '../shared/contract';

type Call = (method: string, input: unknown) => Promise<CallResult<unknown>>;

export interface SaveDeps {
  showSaveDialog(options: {
    title: string;
    defaultPath: string;
    filters: Array<{ name: string; extensions: string[] }>;
  }): Promise<{ canceled: boolean; filePath?: string | undefined }>;
  writeFile(file: string, data: Uint8Array): Promise<void>;
  /** Where the dialog opens (the user's Downloads folder). */
  defaultDir(): string;
}

/** The dialog's filter: "KMZ (*.kmz)"; a Shapefile zip is a .zip to the file system. */
function filterOf(fileName: string): { name: string; extensions: string[] } {
  const ext = fileName.endsWith('.shp.zip') ? 'zip' : path.extname(fileName).slice(1);
  const name = fileName.endsWith('.shp.zip') ? 'Zipped Shapefile' : ext.toUpperCase();
  return { name, extensions: [ext] };
}

/** The methods whose answer is a file to save, and the dialog's title for each. */
const SAVED: Record<string, string> = {
  'files.export': 'Save the export',
  'packages.share': 'Save the field package',
  'outbox.handOver': 'Save the handed-over work',
  'jobs.results': "Save the job's results",
};

/**
 * `call` with the answers of `SAVED` (files to save) saved through the dialog; other
 * methods as they are.
 */
export function withExportSaving(call: Call, deps: SaveDeps): Call {
  return async (method, input) => {
    const result = await call(method, input);
    const title = Object.hasOwn(SAVED, method) ? SAVED[method] : undefined;
    if (title === undefined || !result.ok) return result;
    const file = result.value as ExportedFile;
    const choice = await deps.showSaveDialog({
      title,
      defaultPath: path.join(deps.defaultDir(), file.fileName),
      filters: [filterOf(file.fileName)],
    });
    if (choice.canceled || !choice.filePath) {
      return { ok: true, value: { ...file, base64: '', savedTo: null } };
    }
    try {
      await deps.writeFile(choice.filePath, Buffer.from(file.base64, 'base64'));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        error: { code: 'internal', message: `Could not save ${choice.filePath}: ${why}` },
      };
    }
    return { ok: true, value: { ...file, base64: '', savedTo: choice.filePath } };
  };
}

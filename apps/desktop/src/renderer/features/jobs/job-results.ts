/**
 * "Download results" of a finished job: the backend asks the service to package them and reads
 * the package (`jobs.results`); Electron's main has saved it through a dialog (`savedTo`), in
 * browser mode the page downloads the bytes. The outcome in words, for the job's details.
 */
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { downloadFile } from '../../ui/download-file';

export type ResultsOutcome = { ok: boolean; message: string };

const size = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;

export async function saveJobResults(jobId: string): Promise<ResultsOutcome> {
  try {
    const file = await useBridge().call('jobs.results', { jobId });
    if (file.savedTo === null) return { ok: true, message: 'Not saved: the dialog was cancelled.' };
    if (file.savedTo !== undefined)
      return { ok: true, message: `Saved the results (${size(file.bytes)}) to ${file.savedTo}.` };
    downloadFile(file);
    return { ok: true, message: `Downloaded ${file.fileName} (${size(file.bytes)}).` };
  } catch (err) {
    return { ok: false, message: `Results not saved: ${readableError(err).message}` };
  }
}

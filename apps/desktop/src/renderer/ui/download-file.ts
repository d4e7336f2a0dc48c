/**
 * A file the backend made (an export, a field package, a job's results) as a download of the page:
 * browser mode's save. In Electron main has saved it through a dialog before the page sees it.
 */
import type { ExportedFile } from '../../shared/contract';

/** The bytes of an export as a download of the page (browser mode). */
export function downloadFile(file: ExportedFile, doc: Document = document): void {
  const binary = atob(file.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mediaType }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Where offline rasters live: `<db>.imagery/rasters/` (0700), one file per raster (0600), and a
 * part file beside it while it downloads. A stored file is used only after its size and SHA-256
 * match its row; a file that does not is reported bad (the caller drops it and fetches again).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../db/private-files';
import { imageryDir, RASTERS_DIR } from '../mirror/imagery';

export const rastersDir = (dbFile: string): string => path.join(imageryDir(dbFile), RASTERS_DIR);

export function ensureRastersDir(dbFile: string): string {
  const dir = rastersDir(dbFile);
  // The imagery folder is the app's own: made 0700 like the quicklooks' (mirror/imagery.ts).
  makePrivateDir(dir);
  return dir;
}

export const partFileName = (rasterId: string): string => `${rasterId}.part`;

/** A file name from the raster id (ids are ours: `off_<uuid>`) and the file's extension. */
export function storedFileName(rasterId: string, extension: string): string {
  return `${rasterId}${/^\.[a-z0-9]{1,8}$/.test(extension) ? extension : '.bin'}`;
}

/** The extension of a whole file, from its type, else its URL's name. */
export function extensionOf(contentType: string | null, url: URL): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const byType: Record<string, string> = {
    'application/zip': '.zip',
    'application/x-zip-compressed': '.zip',
    'image/tiff': '.tif',
    'image/geotiff': '.tif',
    'application/json': '.json',
    'application/geo+json': '.geojson',
    'application/x-tar': '.tar',
    'application/gzip': '.gz',
  };
  if (byType[type]) return byType[type];
  const m = /\.([a-z0-9]{1,8})$/i.exec(url.pathname);
  return m ? `.${m[1]!.toLowerCase()}` : '.bin';
}

/** SHA-256 of a file, read in chunks (rasters are tens of MB). */
export function fileSha256(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Whether a stored file is there with the size and hash its row says. */
export function storedFileIntact(file: string, bytes: number, sha256: string): boolean {
  try {
    if (fs.statSync(file).size !== bytes) return false;
  } catch {
    return false;
  }
  return fileSha256(file) === sha256;
}

/** Makes `from` (a finished part file) the stored file `to`, owner-only. */
export function promote(from: string, to: string): void {
  fs.chmodSync(from, PRIVATE_FILE_MODE);
  fs.renameSync(from, to);
}

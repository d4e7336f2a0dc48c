/**
 * Offline rasters behind the `Mirror` (mirror.ts: `mirror.offline`): take a site offline, list
 * what is stored, get a stored file (checked), remove one. One take of the same site at a time.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { SyncBusyError } from '../pull/errors';
import { rastersDir, storedFileIntact, partFileName } from './raster-files';
import { rasterOf, type OfflineRaster } from './rasters';
import { makeOfflineRasterStore } from './store';
import { takeOffline, type SiteRequest, type TakeOfflineOptions } from './take-offline';

export interface OfflineRasters {
  /** Every offline raster, newest first (stored, in progress, failed). */
  list(): OfflineRaster[];
  get(id: string): OfflineRaster | null;
  /**
   * The stored file of a raster, after its size and SHA-256 were checked; null when it is not
   * stored, or bad (then the row goes back to be fetched again by the next `take`).
   */
  file(id: string): string | null;
  /** Takes a site offline (src/offline/take-offline.ts), or resumes the same request. */
  take(request: SiteRequest, options: TakeOfflineOptions): Promise<OfflineRaster>;
  /** Removes a raster: its row, its part file and its stored file. */
  remove(id: string): void;
  /** Whether a take is running. */
  readonly running: boolean;
}

export function makeOfflineRasters(sqlite: Database.Database, dbFile: string): OfflineRasters {
  const store = makeOfflineRasterStore(sqlite);
  const view = (id: string) => {
    const row = store.get(id);
    return row ? rasterOf(row, dbFile) : null;
  };
  const running = new Set<string>();
  return {
    list: () => store.all().map((r) => rasterOf(r, dbFile)),
    get: view,
    file(id) {
      const row = store.get(id);
      if (!row || row.state !== 'stored' || !row.file) return null;
      const file = path.join(rastersDir(dbFile), row.file);
      if (storedFileIntact(file, row.bytes!, row.sha256!)) return file;
      fs.rmSync(file, { force: true });
      store.update(id, { state: 'following', file: null, bytes: null, sha256: null });
      return null;
    },
    async take(request, options) {
      const key = JSON.stringify([request.scene, request.area.geometry, request.resolution]);
      if (running.has(key)) throw new SyncBusyError();
      running.add(key);
      try {
        return await takeOffline({ sqlite, file: dbFile }, request, options);
      } finally {
        running.delete(key);
      }
    },
    remove(id) {
      const row = store.get(id);
      if (!row) return;
      const dir = rastersDir(dbFile);
      if (row.file) fs.rmSync(path.join(dir, row.file), { force: true });
      fs.rmSync(path.join(dir, partFileName(id)), { force: true });
      store.remove(id);
    },
    get running() {
      return running.size > 0;
    },
  };
}

export { areaAround, areaFromFile, areaOfAoi, AreaError, type SiteArea } from './area';
export type { OfflineRaster } from './rasters';
export type { OfflineState, SceneKind } from './store';
export {
  HEADER_BYTES,
  OfflineError,
  type OfflineProgress,
  type Resolution,
  type SiteRequest,
  type TakeOfflineOptions,
} from './take-offline';

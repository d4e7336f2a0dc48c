/**
 * Offline rasters for the backend's tests and benchmarks: a site's window in the stored raster
 * format (shared/__tests__/site-raster.ts draws it) written to a file, as @eo/sync stores the
 * windows it fetches; and an `OfflineRasterSource` over such files, as the backend gets
 * @eo/sync's.
 */
import { fileSink, nodeCompression } from '@eo/geotiff/node';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import {
  writeSiteRaster,
  type SiteRaster,
  type SiteWindowOptions,
} from '../../shared/__tests__/site-raster';
import type { OfflineRasterSource, SourceRaster } from '../offline-rasters';

export interface SiteWindow extends SiteRaster {
  readonly file: string;
  readonly bytes: number;
}

/** Writes a site window to `file` (a COG in the stored format). */
export async function writeSiteWindow(
  file: string,
  options: SiteWindowOptions = {},
): Promise<SiteWindow> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const handle = await fsp.open(file, 'w');
  let site: SiteRaster;
  try {
    site = await writeSiteRaster(fileSink(handle), options, nodeCompression);
  } finally {
    await handle.close();
  }
  return { ...site, file, bytes: fs.statSync(file).size };
}

/** An `OfflineRasterSource` over windows a test wrote (what @eo/sync's store answers). */
export function windowSource() {
  const rows = new Map<string, SourceRaster & { file: string | null }>();
  const source: OfflineRasterSource & {
    add(id: string, w: Pick<SiteWindow, 'file' | 'bytes' | 'sceneId'>, label?: string): void;
    setState(id: string, state: string, fields?: Partial<SourceRaster>): void;
  } = {
    list: () => [...rows.values()].sort((a, b) => b.createdAt - a.createdAt),
    get: (id) => rows.get(id) ?? null,
    file: (id) => {
      const r = rows.get(id);
      return r?.state === 'stored' && r.file && fs.existsSync(r.file) ? r.file : null;
    },
    remove: (id) => {
      const r = rows.get(id);
      if (r?.file) fs.rmSync(r.file, { force: true });
      rows.delete(id);
    },
    add(id, w, label = 'Test site') {
      const now = Date.now() + rows.size;
      rows.set(id, {
        id,
        scene: { kind: 'catalog', ref: w.sceneId, sceneId: w.sceneId },
        area: { label },
        resolution: 'native',
        state: 'stored',
        bytes: w.bytes,
        plannedBytes: w.bytes,
        fetchedBytes: w.bytes,
        message: null,
        createdAt: now,
        storedAt: now,
        file: w.file,
      });
    },
    setState(id, state, fields = {}) {
      const r = rows.get(id);
      if (r) rows.set(id, { ...r, ...fields, state });
    },
  };
  return source;
}

/**
 * Imports in a worker thread with a heap limit and a time limit: hostile files (made here) are
 * refused with their own clear reason, which proves the refusal came within the limits given
 * (10 s, 256 MB of heap: past either, the answer would be the limit's message instead); a
 * valid CSV given by path is streamed; a file over the size limit is refused from its size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hugeRowsViewGeoPackage, kmzBomb, recursiveViewGeoPackage, writeBigCsv } from '../testing';
import { importFileInWorker } from '../worker/import-in-worker';
import { refusal } from './refusal';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-import-worker-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const HOSTILE = { worker: { heapMb: 256, timeMs: 10_000 } };
/** A valid file's read is checked for its result, not its time (a busy machine takes long). */
const VALID = { worker: { heapMb: 256, timeMs: 50_000 } };

describe('importFileInWorker', () => {
  it('refuses the hostile GeoPackages and the KMZ bomb with their own reason, within 10 s and 256 MB', async () => {
    for (const [name, bytes, why] of [
      ['endless.gpkg', recursiveViewGeoPackage(), /"plots" is a view/],
      ['rows.gpkg', hugeRowsViewGeoPackage(), /"plots" is a view/],
      ['bomb.kmz', kmzBomb(1024), /a zip bomb/],
    ] as const) {
      const e = await refusal(importFileInWorker({ name, bytes }, HOSTILE));
      expect(e.file).toBe(name);
      expect(e.message).toMatch(why);
    }
  });

  it('streams a CSV given by path, and stops it at the feature limit', async () => {
    const file = path.join(dir, 'plots.csv');
    const rows = writeBigCsv(file, 4 * 1024 * 1024);
    const preview = await importFileInWorker({ path: file }, VALID);
    expect(preview.format).toBe('csv');
    expect(preview.features.length).toBe(rows);
    expect(preview.features.every((f) => f.problem === null)).toBe(true);
    const e = await refusal(
      importFileInWorker({ path: file }, { ...HOSTILE, limits: { maxFeatures: 1000 } }),
    );
    expect(e.message).toMatch(/plots\.csv: cannot read it as csv: more than 1000 features/);
  });

  it('refuses a file over the size limit from its size, without reading it', async () => {
    const file = path.join(dir, 'huge.csv');
    const fd = fs.openSync(file, 'w');
    fs.ftruncateSync(fd, 300 * 1024 * 1024); // sparse: nothing written, 300 MB long
    fs.closeSync(fd);
    const e = await refusal(importFileInWorker({ path: file }, HOSTILE));
    expect(e.message).toMatch(/huge\.csv: 314572800 bytes: files up to 268435456 bytes are read/);
  });

  it('says so when an import passes the memory or the time limit', async () => {
    const file = path.join(dir, 'many.csv');
    writeBigCsv(file, 24 * 1024 * 1024);
    const memory = await refusal(
      importFileInWorker({ path: file }, { worker: { heapMb: 16, timeMs: 60_000 } }),
    );
    expect(memory.message).toMatch(/needed more than 16 MB of memory, the import's limit/);
    const time = await refusal(
      importFileInWorker({ path: file }, { worker: { heapMb: 256, timeMs: 1 } }),
    );
    expect(time.message).toMatch(/took longer than 0\.001 s, the import's limit/);
  });
});

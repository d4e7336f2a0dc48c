/**
 * A full disk while a picture is stored: the write fails (ENOSPC, injected into `fs` here:
 * deterministic, no tiny filesystem needed), no temp file is left behind (before, a zero-byte
 * `.part` stayed for every failed picture), nothing is recorded, and the error is the one the
 * CLI and the app turn into "the disk is full: free N MB; nothing was lost".
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { diskFullMessage, isDiskFull } from '../../db/disk-full';
import { openMirrorDatabase } from '../../db/open';
import { makeImageryStore } from '../imagery';

const temp = tempDir('disk-full');
const dir = temp.dir;
afterAll(() => temp.remove());
afterEach(() => vi.restoreAllMocks());

const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('a full disk while storing a picture', () => {
  it('leaves no .part file, records nothing, and says how much to free', () => {
    const file = path.join(dir, 'mirror.sqlite');
    const db = openMirrorDatabase(file);
    const store = makeImageryStore(db.sqlite, file);
    try {
      const png = Buffer.alloc(2048, 9);
      store.put('rec-ok', 'thumbnail', png);
      vi.spyOn(fs, 'writeSync').mockImplementation(() => {
        throw enospc();
      });
      let thrown: unknown;
      try {
        store.put('rec-full', 'thumbnail', png);
      } catch (e) {
        thrown = e;
      }
      expect(isDiskFull(thrown)).toBe(true);
      const files = fs.readdirSync(`${file}.imagery`);
      expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
      expect(store.present('rec-full', 'thumbnail')).toBe(false);
      expect(store.present('rec-ok', 'thumbnail')).toBe(true);
    } finally {
      db.close();
    }
    expect(diskFullMessage(dir)).toMatch(/^the disk is full: free \d+ MB; nothing was lost$/);
    expect(
      isDiskFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })),
    ).toBe(true);
    expect(isDiskFull(new Error('other'))).toBe(false);
  });
});

/** Temp folders for test databases, and fresh mirrors in them, removed after the test file. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openMirrorDatabase, type MirrorDatabase } from '../open';

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `eo-sync-${prefix}-`));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Fresh mirror databases in one temp folder; `close()` closes them all and removes the folder. */
export function mirrorFiles(name: string): {
  readonly dir: string;
  fresh(): MirrorDatabase;
  close(): void;
} {
  const tmp = tempDir(name);
  const opened: MirrorDatabase[] = [];
  return {
    dir: tmp.dir,
    fresh() {
      const db = openMirrorDatabase(path.join(tmp.dir, `mirror-${opened.length}.db`));
      opened.push(db);
      return db;
    },
    close() {
      for (const db of opened) db.close();
      tmp.remove();
    },
  };
}

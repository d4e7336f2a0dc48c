/**
 * The catalog records a sync stores as text are packed in the background (sync-runner.ts):
 * after a sync, and after launch for what a closed app left; the records read the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  COMPACT_LAYOUT,
  makeCatalogRecordReader,
  storedText,
  storeRecordText,
} from '@eo/catalog-store';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIRROR_FILE } from '../data-lock';
import {
  connectTo,
  startBackend,
  startService,
  syncToEnd,
  tempDir,
  until,
  type TestService,
} from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(50);
});
afterAll(async () => {
  await service?.close();
});

/** The mirror file's records: how many are stored as text, how many wait in the list, texts. */
function mirrorState(dataDir: string) {
  const sqlite = new Database(path.join(dataDir, MIRROR_FILE), { readonly: true });
  try {
    const blobs = sqlite.prepare('SELECT record FROM catalog_records').pluck().all() as Buffer[];
    return {
      records: blobs.length,
      stored: blobs.filter((b) => storedText(b) !== null).length,
      listed: sqlite.prepare('SELECT count(*) FROM catalog_unpacked').pluck().get() as number,
    };
  } finally {
    sqlite.close();
  }
}

describe('packing the catalog in the background', () => {
  it('packs what a sync stored once it finished, and what a closed app left after launch', async () => {
    const dataDir = tempDir('eo-desktop-packing-');
    const first = await connectTo(startBackend({ dataDir }), service);
    let texts: Map<string, string>;
    try {
      await syncToEnd(first, 'the sync whose records get packed');
      await first.backend.idle();
      const state = mirrorState(dataDir);
      expect(state.records).toBeGreaterThan(0);
      expect(state).toMatchObject({ stored: 0, listed: 0 });
    } finally {
      await first.backend.close();
    }

    // As an app killed before packing leaves it: every record stored as its text, listed.
    const sqlite = new Database(path.join(dataDir, MIRROR_FILE));
    try {
      const reader = makeCatalogRecordReader(sqlite, COMPACT_LAYOUT);
      texts = new Map([...reader.newestFirst()].map((r) => [r.id, r.json]));
      const store = sqlite.prepare('UPDATE catalog_records SET record = ? WHERE id = ?');
      const list = sqlite.prepare(
        'INSERT INTO catalog_unpacked SELECT seq FROM catalog_records WHERE id = ?',
      );
      sqlite.transaction(() => {
        for (const [id, json] of texts) {
          store.run(storeRecordText(json), id);
          list.run(id);
        }
      })();
    } finally {
      sqlite.close();
    }
    expect(mirrorState(dataDir)).toMatchObject({ stored: texts.size, listed: texts.size });

    const second = startBackend({ dataDir, packAfterLaunchMs: 0 });
    try {
      await until('the records left as text packed after launch', () => {
        const s = mirrorState(dataDir);
        return s.stored === 0 && s.listed === 0;
      });
    } finally {
      await second.backend.close();
    }
    const again = new Database(path.join(dataDir, MIRROR_FILE), { readonly: true });
    try {
      const packed = [...makeCatalogRecordReader(again, COMPACT_LAYOUT).newestFirst()];
      expect(new Map(packed.map((r) => [r.id, r.json]))).toEqual(texts);
    } finally {
      again.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

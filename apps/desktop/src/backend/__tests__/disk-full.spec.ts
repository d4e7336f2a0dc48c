/**
 * A full disk, said in the app as the CLI says it: a call that fails with SQLite's SQLITE_FULL
 * or Node's ENOSPC answers `disk_full` with "the disk is full: free N MB; nothing was lost" (not
 * an internal error to report), and a sync stopped by it shows the same words as its hint on the
 * Sync screen. The errors are real ones: a database at its `max_page_count` (what SQLite says
 * when the disk has no room) and a write to /dev/full.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeSyncError } from '@eo/sync';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Handlers } from '../dispatch';
import { dispatch } from '../dispatch';
import { describeForUser } from '../mirror-status';
import { tempDir } from './harness';

const dataDir = tempDir('eo-desktop-disk-full-');
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const MESSAGE = /^the disk is full: free \d+ MB; nothing was lost$/;

/** The error SQLite throws when a write finds no room. */
let databases = 0;
function sqliteFull(): unknown {
  const sqlite = new Database(path.join(dataDir, `small-${databases++}.sqlite`));
  try {
    sqlite.exec('CREATE TABLE t (v BLOB)');
    sqlite.pragma('max_page_count = 4');
    sqlite.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(64 * 1024));
  } catch (e) {
    return e;
  } finally {
    sqlite.close();
  }
  throw new Error('the write fitted');
}

/** The error Node throws when a write finds no room (/dev/full always answers ENOSPC). */
function enospc(): unknown {
  try {
    fs.writeFileSync('/dev/full', 'picture bytes');
  } catch (e) {
    return e;
  }
  throw new Error('the write fitted');
}

const throwing = (e: unknown) =>
  new Proxy({} as Handlers, {
    get: () => () => {
      throw e;
    },
  });

describe('a full disk in the app', () => {
  it.each([
    ['SQLITE_FULL', sqliteFull],
    ['ENOSPC', enospc],
  ])('a call failing with %s answers disk_full with what to free', async (code, make) => {
    const e = make();
    expect((e as { code?: string }).code).toBe(code);
    const onInternalError = vi.fn();
    const r = await dispatch(throwing(e), 'settings.get', undefined, { dataDir, onInternalError });
    expect(r).toMatchObject({ ok: false, error: { code: 'disk_full' } });
    if (!r.ok) expect(r.error.message).toMatch(MESSAGE);
    expect(onInternalError).not.toHaveBeenCalled();
  });

  it('a sync it stopped says so on the Sync screen, with what to free', () => {
    const stored = describeSyncError(sqliteFull());
    expect(stored.kind).toBe('disk_full');
    const shown = describeForUser(stored, dataDir);
    expect(shown.code).toBe('disk_full');
    expect(shown.hint).toMatch(
      /^The disk is full: free \d+ MB; nothing was lost\. The next sync resumes where this one stopped\.$/,
    );
  });
});

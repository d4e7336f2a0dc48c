/**
 * A stored value the desktop store could not read whole is kept aside before anything can
 * overwrite it: its exact text goes to `<data dir>/unreadable/<key>-<hash>.json` (0600, in a
 * 0700 folder), and each loss is named in the log with that file. Reading falls back field by
 * field (stored-state.ts), so the app goes on; the file keeps what the fallback dropped, for
 * support or a later version to read. The name carries a hash of the text: reading the same
 * damaged value again writes nothing new.
 */
import { makePrivateDir, PRIVATE_FILE_MODE } from '@eo/sync';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OnDropped } from './stored-state';

export const UNREADABLE_DIR = 'unreadable';

/** Keeps `raw` (the stored text of `key`) aside; returns the file it is in. */
export function keepAside(dataDir: string, key: string, raw: string): string {
  const dir = path.join(dataDir, UNREADABLE_DIR);
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 16);
  const file = path.join(dir, `${key.replace(/[^A-Za-z0-9.-]/g, '_')}-${hash}.json`);
  makePrivateDir(dir);
  try {
    fs.writeFileSync(file, raw, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return file;
}

/**
 * Reads one stored value with `read`; when it dropped anything, the stored text is kept aside
 * first and each loss reaches `onDropped` naming the file (or why it could not be written).
 */
export function readKeepingAside<T>(
  dataDir: string,
  key: string,
  raw: string,
  onDropped: OnDropped,
  read: (onDropped: OnDropped) => T,
): T {
  const losses: string[] = [];
  const value = read((what) => losses.push(what));
  if (losses.length === 0) return value;
  let where: string;
  try {
    where = `kept in ${keepAside(dataDir, key, raw)}`;
  } catch (e) {
    where = `not kept aside (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  for (const loss of losses) onDropped(`${loss}; the stored value ${where}`);
  return value;
}

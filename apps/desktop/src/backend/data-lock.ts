/**
 * One app at a time on a data folder: Electron's backend and browser mode hold the lock of the
 * folder's mirror (`@eo/sync/mirror-lock`, which `eo outbox flush` takes too) from before the
 * backend starts until it has closed. A second one refuses to start, naming the first (browser
 * mode's with the address to open). Electron's own single-instance lock is per data folder too
 * (main/index.ts), so two windows of the app never get this far: the second brings the first
 * forward. Light on purpose: browser mode takes the lock before it listens, ahead of the
 * backend's code.
 */
import path from 'node:path';
import { lockMirror, type MirrorHolderMode, type MirrorLock } from '@eo/sync/mirror-lock';

/** Files in the data dir: `mirror.sqlite` (@eo/sync), `desktop.sqlite` (settings, searches, tiles). */
export const MIRROR_FILE = 'mirror.sqlite';

/** Takes `dataDir`'s lock (the folder made if missing), or throws MirrorInUseError. */
export function holdDataFolder(
  dataDir: string,
  mode: Exclude<MirrorHolderMode, 'cli'>,
): MirrorLock {
  return lockMirror(path.join(dataDir, MIRROR_FILE), { mode });
}

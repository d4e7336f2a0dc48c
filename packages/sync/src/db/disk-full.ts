/**
 * A full disk, said the same way by the CLI and the app: what to do (free some room) and that
 * nothing was lost (every write here is a transaction or a temp file renamed into place: a
 * failed one leaves what was there before). Recognised from Node's ENOSPC and SQLite's
 * SQLITE_FULL ("database or disk is full", also a database at its `max_page_count`).
 */
import fs from 'node:fs';

/** Room the mirror wants free to go on (a sync's pages, a batch of pictures), MB. */
export const DISK_HEADROOM_MB = 100;

export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'SQLITE_FULL';
}

/** "the disk is full: free N MB; nothing was lost", N what `dir`'s disk lacks of the headroom. */
export function diskFullMessage(dir: string): string {
  let freeMb = 0;
  try {
    const s = fs.statfsSync(dir);
    freeMb = (s.bavail * s.bsize) / (1024 * 1024);
  } catch {
    // Unknown: ask for the whole headroom.
  }
  const need = Math.max(1, Math.ceil(DISK_HEADROOM_MB - freeMb));
  return `the disk is full: free ${need} MB; nothing was lost`;
}

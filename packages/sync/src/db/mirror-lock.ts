/**
 * One program at a time on a mirror database: the desktop app, browser mode and `eo outbox
 * flush` each hold this lock while they run, and a second one refuses to start with a message
 * naming the first (two at once sent queued creates twice: only the Idempotency-Key absorbed
 * them).
 *
 * The lock is the operating system's, not a pid in a file: `<mirror>.lock` is an SQLite file
 * held in an exclusive transaction for as long as the holder runs (a POSIX advisory lock; SQLite
 * also keeps two connections of one process apart). A holder that dies, even by kill -9, drops
 * it with its file descriptors, so a stale lock cannot exist and nothing guesses from pids,
 * which are reused. Who holds it is written beside it, in `<mirror>.lock.json` (pid, mode, URL),
 * for the refusal's message only; the lock file itself is never deleted (a second program
 * could otherwise lock a new file while the first still holds the old one).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makePrivateDir, PRIVATE_FILE_MODE, preparePrivateDatabase } from './private-files';

/** Which program holds the mirror. */
export type MirrorHolderMode = 'electron' | 'browser' | 'cli';

export interface MirrorHolder {
  readonly pid: number;
  readonly mode: MirrorHolderMode;
  /** Where to find it: browser mode's address (with its token), the CLI's command; else null. */
  readonly url: string | null;
  readonly command: string | null;
  /** When it took the lock (ISO 8601). */
  readonly since: string;
}

/** The mirror is held by another program (`holder`, when it has said who it is). */
export class MirrorInUseError extends Error {
  constructor(
    readonly file: string,
    readonly holder: MirrorHolder | null,
  ) {
    super(inUseMessage(file, holder));
    this.name = 'MirrorInUseError';
  }
}

export interface MirrorLock {
  readonly file: string;
  /** Says where the holder can be found, once it knows (browser mode's URL after it listens). */
  describe(where: { url?: string | null; command?: string | null }): void;
  /** Lets the next program in (again: nothing). */
  release(): void;
}

export const lockFileOf = (mirrorFile: string): string => `${path.resolve(mirrorFile)}.lock`;
const holderFileOf = (mirrorFile: string): string => `${lockFileOf(mirrorFile)}.json`;

/**
 * Takes the lock of `mirrorFile` (which need not exist yet; a missing folder is made 0700) for
 * this process, or throws MirrorInUseError naming the program that holds it.
 */
export function lockMirror(
  mirrorFile: string,
  who: { mode: MirrorHolderMode; url?: string | null; command?: string | null },
): MirrorLock {
  const lockFile = lockFileOf(mirrorFile);
  const holderFile = holderFileOf(mirrorFile);
  makePrivateDir(path.dirname(lockFile));
  preparePrivateDatabase(lockFile);
  // No busy wait: a held lock is an answer, not a moment to wait out.
  const sqlite = new Database(lockFile, { timeout: 0 });
  try {
    sqlite.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    sqlite.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY')
      throw new MirrorInUseError(path.resolve(mirrorFile), readHolder(holderFile));
    throw e;
  }
  let holder: MirrorHolder = {
    pid: process.pid,
    mode: who.mode,
    url: who.url ?? null,
    command: who.command ?? null,
    since: new Date().toISOString(),
  };
  writeHolder(holderFile, holder);
  let held = true;
  return {
    file: lockFile,
    describe(where) {
      if (!held) return;
      holder = { ...holder, ...where };
      writeHolder(holderFile, holder);
    },
    release() {
      if (!held) return;
      held = false;
      // The note first, while the lock still says it is ours.
      fs.rmSync(holderFile, { force: true });
      sqlite.close();
    },
  };
}

/** Written whole or not at all (a reader never sees half of it). */
function writeHolder(file: string, holder: MirrorHolder): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: PRIVATE_FILE_MODE });
  fs.renameSync(tmp, file);
}

/**
 * What the holder said about itself; null when it has not yet (it took the lock a moment ago)
 * or the note is an older holder's (its pid is gone).
 */
function readHolder(file: string): MirrorHolder | null {
  let h: Partial<MirrorHolder>;
  try {
    h = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<MirrorHolder>;
  } catch {
    return null;
  }
  if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || !isAlive(h.pid)) return null;
  if (h.mode !== 'electron' && h.mode !== 'browser' && h.mode !== 'cli') return null;
  return {
    pid: h.pid,
    mode: h.mode,
    url: typeof h.url === 'string' ? h.url : null,
    command: typeof h.command === 'string' ? h.command : null,
    since: typeof h.since === 'string' ? h.since : '',
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The program, as a user would recognise it. */
export function describeHolder(h: MirrorHolder): string {
  const since = h.since ? `, since ${h.since.slice(0, 19).replace('T', ' ')} UTC` : '';
  switch (h.mode) {
    case 'electron':
      return `the EO Field Desk app (pid ${h.pid}${since})`;
    case 'browser':
      return `EO Field Desk in browser mode (pid ${h.pid}${since})${h.url ? `, open at ${h.url}` : ''}`;
    case 'cli':
      return `\`${h.command ?? 'eo'}\` (pid ${h.pid}${since})`;
  }
}

function inUseMessage(file: string, holder: MirrorHolder | null): string {
  const who = holder ? describeHolder(holder) : 'another EO Field Desk program (starting up)';
  return `${file} is in use by ${who}; one program at a time may use it: use that one, or stop it first`;
}

/**
 * Local data is the user's alone: folders we create are 0700 and database files (with their
 * `-wal` and `-shm`) 0600, whatever the process umask. Modes are set explicitly (chmod after
 * create), never left to the umask; SQLite gives a database's `-wal` and `-shm` the mode of the
 * database file itself, so creating that file 0600 before SQLite opens it covers all three.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The SQLite files of a database: the file, its write-ahead log and its shared memory. */
export const sqliteFiles = (file: string): string[] => [file, `${file}-wal`, `${file}-shm`];

/**
 * Creates `dir` and any missing parents 0700. With `own: true` the folder is the app's own
 * (its data dir): an existing one is tightened too. Otherwise (a folder the user named, e.g.
 * the CLI's `--db` folder) only folders created here are changed.
 */
export function makePrivateDir(dir: string, options: { own?: boolean } = {}): void {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  for (let d = absolute; !fs.existsSync(d); d = path.dirname(d)) missing.push(d);
  fs.mkdirSync(absolute, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const d of missing) fs.chmodSync(d, PRIVATE_DIR_MODE);
  if (options.own && !missing.includes(absolute)) tighten(absolute, PRIVATE_DIR_MODE);
}

/**
 * Before SQLite opens `file`: creates it 0600 if absent, and tightens an existing database and
 * its `-wal` / `-shm` (made by an older version with the umask's 0644).
 */
export function preparePrivateDatabase(file: string): void {
  try {
    fs.closeSync(
      fs.openSync(
        file,
        fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY,
        PRIVATE_FILE_MODE,
      ),
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  for (const f of sqliteFiles(file)) tighten(f, PRIVATE_FILE_MODE);
}

/** chmod to `mode` if it differs; absent files and files of another user are left alone. */
function tighten(file: string, mode: number): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if ((stat.mode & 0o777) === mode) return;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return;
  fs.chmodSync(file, mode);
}

/**
 * The mirror's lock (db/mirror-lock.ts): one holder at a time, the refusal names the holder from
 * its note, a note left by a dead holder is not believed, the files are the user's alone, and a
 * holder killed with -9 leaves no lock behind (the operating system drops it; no pid is
 * guessed).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockFileOf, lockMirror, MirrorInUseError } from '../mirror-lock';
import { tempDir } from './temp';

const tmp = tempDir('mirror-lock');
afterAll(() => tmp.remove());
let n = 0;
const freshMirror = () => path.join(tmp.dir, `mirror-${n++}.sqlite`);

function refusal(file: string): MirrorInUseError {
  try {
    lockMirror(file, { mode: 'cli', command: 'eo outbox flush' }).release();
  } catch (e) {
    if (e instanceof MirrorInUseError) return e;
    throw e;
  }
  throw new Error('the second holder was let in');
}

describe('the mirror lock', () => {
  it('lets one holder in, refuses the next naming the first, and lets it in once released', () => {
    const file = freshMirror();
    const first = lockMirror(file, { mode: 'browser' });
    first.describe({ url: 'http://127.0.0.1:5183/#token=t0k' });
    const refused = refusal(file);
    expect(refused.holder).toMatchObject({
      pid: process.pid,
      mode: 'browser',
      url: 'http://127.0.0.1:5183/#token=t0k',
    });
    expect(refused.message).toContain(`${path.resolve(file)} is in use by EO Field Desk in`);
    expect(refused.message).toContain('open at http://127.0.0.1:5183/#token=t0k');
    first.release();
    first.release(); // again: nothing
    const second = lockMirror(file, { mode: 'electron' });
    expect(refusal(file).message).toContain(`the EO Field Desk app (pid ${process.pid}`);
    second.release();
    // The lock file stays (deleting it would let a second program lock a new file).
    expect(fs.existsSync(lockFileOf(file))).toBe(true);
  });

  it('keeps its files owner-only, in a folder it makes 0700', () => {
    const file = path.join(tmp.dir, 'new-folder', 'mirror.sqlite');
    const lock = lockMirror(file, { mode: 'cli', command: 'eo outbox flush' });
    try {
      const mode = (f: string) => fs.statSync(f).mode & 0o777;
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(lockFileOf(file))).toBe(0o600);
      expect(mode(`${lockFileOf(file)}.json`)).toBe(0o600);
    } finally {
      lock.release();
    }
  });

  it("does not believe a note whose holder is gone: 'starting up'", () => {
    const file = freshMirror();
    const lock = lockMirror(file, { mode: 'electron' });
    // The note of a holder that died, as if the lock's holder had not written its own yet.
    const gone = 2 ** 22 + 17; // above Linux's pid_max default: no such process
    fs.writeFileSync(`${lockFileOf(file)}.json`, JSON.stringify({ pid: gone, mode: 'browser' }));
    const refused = refusal(file);
    expect(refused.holder).toBeNull();
    expect(refused.message).toContain('another EO Field Desk program (starting up)');
    lock.release();
  });

  it('is free again once its holder is killed with -9', async () => {
    const file = freshMirror();
    // A holder in another process: SQLite's lock of the same kind, held until the process dies.
    const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D = require(${JSON.stringify(betterSqlite)});
         const db = new D(${JSON.stringify(lockFileOf(file))});
         db.exec('BEGIN EXCLUSIVE');
         process.stdout.write('held\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', () => resolve());
        holder.on('exit', () => reject(new Error('the holder ended before it held the lock')));
      });
      expect(refusal(file).message).toContain('is in use by');
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
    lockMirror(file, { mode: 'cli', command: 'eo outbox flush' }).release();
  });
});

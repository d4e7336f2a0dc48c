/**
 * Local data is owner-only whatever the umask: folders the database opener creates are 0700,
 * the database, its -wal and -shm 0600; a folder the user already had is left as it was; files
 * an older version made 0644 are tightened. The same through `eo` with `--db`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eo } from '../../cli/__tests__/run-eo';
import { openMirrorDatabase } from '../open';
import { tempDir } from './temp';

const tmp = tempDir('private-files');
afterAll(() => tmp.remove());

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const modes = (file: string) => ({
  db: mode(file),
  wal: mode(`${file}-wal`),
  shm: mode(`${file}-shm`),
});

describe('private local data', () => {
  it('creates missing folders 0700 and the database, -wal and -shm 0600', () => {
    const shared = path.join(tmp.dir, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    const file = path.join(shared, 'field', 'desk', 'mirror.db');
    const db = openMirrorDatabase(file);
    try {
      db.sqlite.exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (1)');
      expect(fs.existsSync(`${file}-wal`)).toBe(true);
      expect(modes(file)).toEqual({ db: 0o600, wal: 0o600, shm: 0o600 });
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.join(shared, 'field'))).toBe(0o700);
      // A folder the user had: not ours to change.
      expect(mode(shared)).toBe(0o755);
    } finally {
      db.close();
    }
  });

  it('tightens a database an older version left readable to others', () => {
    const file = path.join(tmp.dir, 'old.db');
    openMirrorDatabase(file).close();
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      if (!fs.existsSync(f)) fs.writeFileSync(f, '');
      fs.chmodSync(f, 0o644);
    }
    fs.rmSync(`${file}-wal`);
    fs.rmSync(`${file}-shm`);
    const db = openMirrorDatabase(file);
    try {
      db.sqlite.exec('CREATE TABLE probe (x); INSERT INTO probe VALUES (1)');
      expect(modes(file)).toEqual({ db: 0o600, wal: 0o600, shm: 0o600 });
    } finally {
      db.close();
    }
  });

  it('eo --db in a new folder: the folder 0700, the files 0600', async () => {
    const file = path.join(tmp.dir, 'cli', 'new', 'field.db');
    const r = await eo(['outbox', 'add', 'job', '--db', file, '--file', '-'], {
      stdin: JSON.stringify({ workflow_id: 'wf-1', project_id: 'prj-demo-crops' }),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(path.join(tmp.dir, 'cli'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    for (const f of [`${file}-wal`, `${file}-shm`])
      if (fs.existsSync(f)) expect(mode(f)).toBe(0o600);
  });
});

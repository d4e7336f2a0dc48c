/**
 * The desktop store read back through schemas: values written by an older version, a newer
 * one or damaged on disk (written here straight into a real desktop.sqlite) read as what can be
 * kept, each loss named without its value.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, openDesktopStore } from '../local-store';
import { SETTINGS_VERSION } from '../stored-state';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A desktop store whose rows are then overwritten as given, and what it says it dropped. */
function storeWith(rows: Record<string, string>, sql: string[] = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-stored-'));
  dirs.push(dir);
  openDesktopStore(dir, () => {}).close();
  const raw = new Database(path.join(dir, 'desktop.sqlite'));
  for (const [key, json] of Object.entries(rows))
    raw.prepare('INSERT OR REPLACE INTO settings (key, value_json) VALUES (?, ?)').run(key, json);
  for (const s of sql) raw.exec(s);
  raw.close();
  const said: string[] = [];
  const store = openDesktopStore(dir, (what) => said.push(what));
  // What was dropped, without where its stored value was kept (tested below).
  const dropped = {
    get list() {
      return said.map((x) => x.split('; the stored value ')[0]!);
    },
  };
  return { store, dir, said, dropped };
}

/** The files of the data dir's `unreadable/` folder, and their texts. */
function keptAside(dir: string): Record<string, string> {
  const folder = path.join(dir, 'unreadable');
  if (!fs.existsSync(folder)) return {};
  return Object.fromEntries(
    fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f), 'utf8')]),
  );
}

describe('stored settings', () => {
  it('written with their version, read back as saved', () => {
    const { store } = storeWith({});
    const saved = { ...DEFAULT_SETTINGS, serviceUrl: 'https://eo.example', workOffline: true };
    store.saveSettings(saved);
    expect(store.settings()).toEqual(saved);
    store.close();
  });

  it('an older version (no version, fields missing) reads with the defaults for what it lacks', () => {
    const old = { serviceUrl: 'https://eo.example', mirror: { orders: false } };
    const { store, dropped } = storeWith({ settings: JSON.stringify(old) });
    expect(store.settings()).toEqual({
      ...DEFAULT_SETTINGS,
      serviceUrl: 'https://eo.example',
      mirror: { ...DEFAULT_SETTINGS.mirror, orders: false },
    });
    expect(dropped.list).toEqual([]);
    store.close();
  });

  it('a field that does not parse takes its default, the others stay, the loss is named', () => {
    const damaged = {
      version: SETTINGS_VERSION + 3, // a newer app's: read field by field all the same
      serviceUrl: 'https://eo.example',
      syncIntervalMinutes: -5,
      imagery: 'holograms',
      autoSendOrders: 'yes please',
      somethingNew: { a: 1 },
    };
    const { store, dropped } = storeWith({ settings: JSON.stringify(damaged) });
    const s = store.settings();
    expect(s).toEqual({ ...DEFAULT_SETTINGS, serviceUrl: 'https://eo.example' });
    expect(s).not.toHaveProperty('somethingNew');
    expect(dropped.list.sort()).toEqual([
      'settings.autoSendOrders: not readable, its default is used',
      'settings.imagery: not readable, its default is used',
      'settings.syncIntervalMinutes: not readable, its default is used',
    ]);
    store.close();
  });

  it('not JSON, or not an object: the defaults', () => {
    for (const json of ['{"serviceUrl": "https://eo', '[1, 2]', 'null']) {
      const { store, dropped } = storeWith({ settings: json });
      expect(store.settings()).toEqual(DEFAULT_SETTINGS);
      expect(dropped.list).toHaveLength(1);
      store.close();
    }
  });
});

describe('what could not be read is kept aside, never lost', () => {
  it('keeps the stored text in unreadable/, names the file in the log, once per text', () => {
    const damaged = JSON.stringify({ serviceUrl: 'https://eo.example', imagery: 'holograms' });
    const { store, dir, said } = storeWith({ settings: damaged });
    expect(store.settings().imagery).toBe(DEFAULT_SETTINGS.imagery);
    const files = keptAside(dir);
    expect(Object.values(files)).toEqual([damaged]);
    const [name] = Object.keys(files);
    expect(name).toMatch(/^settings-[0-9a-f]{16}\.json$/);
    expect(said).toEqual([
      `settings.imagery: not readable, its default is used; the stored value kept in ${path.join(dir, 'unreadable', name!)}`,
    ]);
    // Read again, then saved over: the kept text stays as it was, and only one file.
    store.settings();
    store.saveSettings(store.settings());
    expect(keptAside(dir)).toEqual(files);
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(dir, 'unreadable')).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, 'unreadable', name!)).mode & 0o777).toBe(0o600);
    }
    store.close();
  });

  it('keeps hostile texts byte for byte: not JSON, deep nesting, a large value, odd characters', () => {
    const samples = [
      '{"serviceUrl": "https://eo',
      '['.repeat(100_000),
      JSON.stringify({ serviceUrl: 'x'.repeat(2_000_000) }),
      '{"imagery": "\\u0000 \u{1F6F0} ../../etc/passwd"}',
    ];
    for (const json of samples) {
      const { store, dir, said } = storeWith({ settings: json, basket: json });
      expect(store.settings()).toEqual(DEFAULT_SETTINGS);
      expect(store.basket()).toEqual([]);
      const files = keptAside(dir);
      expect(
        Object.keys(files)
          .sort()
          .map((f) => f.split('-')[0]),
      ).toEqual(['basket', 'settings']);
      expect(Object.values(files)).toEqual([json, json]);
      expect(said.every((x) => x.includes('; the stored value kept in '))).toBe(true);
      store.close();
    }
  });

  it('reads on when the text cannot be kept aside, and says so', () => {
    const { store, dir, said } = storeWith({ apiKeyBinding: '{"origin": 42}' });
    fs.writeFileSync(path.join(dir, 'unreadable'), 'a file where the folder would go');
    expect(store.keyBinding()).toBeNull();
    expect(said).toEqual([
      expect.stringMatching(
        /^apiKeyBinding: not readable; the stored value not kept aside \(E[A-Z]+\)$/,
      ),
    ]);
    store.close();
  });

  it('a value that reads whole is not copied anywhere', () => {
    const { store, dir, said } = storeWith({ basket: '[]', apiKeyBinding: 'null' });
    expect(store.basket()).toEqual([]);
    expect(store.keyBinding()).toBeNull();
    expect(said).toEqual([]);
    expect(keptAside(dir)).toEqual({});
    store.close();
  });
});

describe('other stored values', () => {
  it('an unreadable key binding binds the key to nothing (it is asked for again)', () => {
    const { store, dropped } = storeWith({ apiKeyBinding: '{"origin": 42}' });
    expect(store.keyBinding()).toBeNull();
    expect(dropped.list).toEqual(['apiKeyBinding: not readable']);
    store.close();
  });

  it('the basket keeps the entries that read, and names how many did not', () => {
    const basket = [
      { id: 'S1', addedAt: '2026-11-28T10:00:00Z' },
      { id: 42, addedAt: 'x' },
      'S3',
      { id: 'S4', addedAt: '2026-11-28T11:00:00Z' },
      // An archive scene, and one whose archive part does not read (a footprint of text).
      {
        id: 'A5',
        addedAt: 'x',
        archive: { platform: 'p', collection: null, datetime: null, footprint: [1, 2, 3, 4, 5, 6] },
      },
      {
        id: 'A6',
        addedAt: 'x',
        archive: { platform: 'p', collection: null, datetime: null, footprint: ['1'] },
      },
    ];
    const { store, dropped } = storeWith({ basket: JSON.stringify(basket) });
    const read = store.basket();
    expect(read.map((e) => e.id)).toEqual(['S1', 'S4', 'A5']);
    expect(read[2]!.archive?.footprint).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dropped.list).toEqual(['basket: 3 of 6 entries not readable']);
    store.close();
  });

  it('a mirror source that does not read is never recorded, as for a mirror never synced', () => {
    const { store } = storeWith({ mirrorSource: '{"sources": "embedded"}' });
    expect(store.mirrorSource()).toBeUndefined();
    store.close();
  });

  it('saved searches whose stored query or search does not read are left out of the lists', () => {
    const now = '2026-11-28T10:00:00Z';
    const { store, dropped } = storeWith({}, [
      `INSERT INTO saved_searches VALUES ('a', 'Good', '{"limit": 5}', '${now}', '${now}')`,
      `INSERT INTO saved_searches VALUES ('b', 'Bad', '[1', '${now}', '${now}')`,
      `INSERT INTO saved_archive_searches VALUES ('c', 'Bad', '{"satellite_ids": 3}', 10, '${now}', '${now}')`,
    ]);
    expect(store.savedSearches().map((s) => s.id)).toEqual(['a']);
    expect(store.savedArchiveSearches()).toEqual([]);
    expect(dropped.list.sort()).toEqual([
      'saved archive search c: not readable',
      'saved search b: not JSON',
    ]);
    store.close();
  });
});

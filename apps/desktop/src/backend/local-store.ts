/**
 * The desktop store: the app's own small database (`desktop.sqlite`, next to sync's mirror
 * database): settings, saved searches (of the catalog and of the archive), the basket, the tile cache and the price each queued
 * order had when it was composed. Kept apart from the mirror so clearing the mirror never touches
 * them, and so the mirror stays exactly @eo/sync's schema.
 */
import { DEFAULT_IMAGERY_BUDGET_BYTES, makePrivateDir, preparePrivateDatabase } from '@eo/sync';
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_SERVICE_DIALECT,
  type IdempotencyPolicy,
  type ImageryChoice,
  type SavedArchiveSearch,
  type ServiceDialect,
} from '@eo/domain';
import type { MirrorSettings, QuotedPrice, SavedSearch, SyncResource } from '../shared/contract';
import {
  ArchiveSearchValue,
  BasketEntryValue,
  KeyBindingValue,
  MirrorSourceValue,
  readList,
  readSettings,
  readValue,
  SavedQueryValue,
  writeSettings,
  type OnDropped,
} from './stored-state';
import { readKeepingAside } from './kept-aside';

export interface StoredSettings {
  serviceUrl: string | null;
  /** The configured service's profile; settings saved before it existed read as `spec`. */
  dialect: ServiceDialect;
  mirror: MirrorSettings;
  syncIntervalMinutes: number;
  tileUrl: string | null;
  idempotency: IdempotencyPolicy;
  /** Settings saved before it existed read as false: orders wait for the user. */
  autoSendOrders: boolean;
  /** Quicklooks the sync keeps; settings saved before it existed read as `thumbnails`. */
  imagery: ImageryChoice;
  imageryBudgetMb: number;
  /** The "Work offline" switch; settings saved before it existed read as false. */
  workOffline: boolean;
}

/**
 * A record in the basket (basket.ts): its id and when it was added (ISO 8601); an archive
 * scene also keeps what the basket shows and an order needs of it (its search may move on).
 */
export interface StoredBasketEntry {
  id: string;
  addedAt: string;
  archive?: StoredArchiveScene | undefined;
}

/** What the basket keeps of an archive scene (the mirror's archive row, when it was added). */
export interface StoredArchiveScene {
  platform: string | null;
  collection: string | null;
  datetime: string | null;
  /** Flat [lon, lat, ...], not closed; null when the scene had no readable outline. */
  footprint: number[] | null;
}

/** Services are named by their key binding: an origin, or `embedded` (key-binding.ts). */
export interface MirrorSourceState {
  /** Every service a sync pulled from since the mirror was last cleared. */
  sources: string[];
  /** The service each resource's last complete sync was against. */
  completedFor: Partial<Record<SyncResource, string>>;
  /** The service each create still in the outbox was queued for (by entry id). */
  queuedFor?: Record<string, string>;
}

export const DEFAULT_SETTINGS: StoredSettings = {
  serviceUrl: null,
  dialect: DEFAULT_SERVICE_DIALECT,
  mirror: { orders: true, orderItems: true, aois: true, indices: true, catalog: 'all' },
  syncIntervalMinutes: 0,
  tileUrl: null,
  idempotency: 'auto',
  autoSendOrders: false,
  imagery: 'thumbnails',
  imageryBudgetMb: DEFAULT_IMAGERY_BUDGET_BYTES / 2 ** 20,
  workOffline: false,
};

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value_json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS saved_searches (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, query_json TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS saved_archive_searches (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, search_json TEXT NOT NULL, max_scenes INTEGER NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tiles (
  url TEXT PRIMARY KEY, content_type TEXT NOT NULL, body BLOB NOT NULL, fetched_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS composed_prices (
  entry_id TEXT PRIMARY KEY, total REAL NOT NULL, quoted_at TEXT NOT NULL);
`;

/** Persisted values that could not be read back are named here (never their values). */
const warnDropped: OnDropped = (what) => console.warn(`desktop store: ${what}`);

export function openDesktopStore(dataDir: string, onDropped: OnDropped = warnDropped) {
  makePrivateDir(dataDir, { own: true });
  const file = path.join(dataDir, 'desktop.sqlite');
  preparePrivateDatabase(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const getSetting = db.prepare<[string], { value_json: string }>(
    'SELECT value_json FROM settings WHERE key = ?',
  );
  const putSetting = db.prepare(
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json',
  );
  const listSearches = db.prepare<[], Row>('SELECT * FROM saved_searches ORDER BY name, id');
  const getSearch = db.prepare<[string], Row>('SELECT * FROM saved_searches WHERE id = ?');
  const upsertSearch = db.prepare(
    `INSERT INTO saved_searches (id, name, query_json, created_at, updated_at) VALUES (@id, @name, @query_json, @now, @now)
     ON CONFLICT(id) DO UPDATE SET name = excluded.name, query_json = excluded.query_json, updated_at = excluded.updated_at`,
  );
  const deleteSearch = db.prepare('DELETE FROM saved_searches WHERE id = ?');
  const listArchive = db.prepare<[], ArchiveRow>(
    'SELECT * FROM saved_archive_searches ORDER BY name, id',
  );
  const getArchive = db.prepare<[string], ArchiveRow>(
    'SELECT * FROM saved_archive_searches WHERE id = ?',
  );
  const upsertArchive = db.prepare(
    `INSERT INTO saved_archive_searches (id, name, search_json, max_scenes, created_at, updated_at)
     VALUES (@id, @name, @search_json, @max_scenes, @now, @now)
     ON CONFLICT(id) DO UPDATE SET name = excluded.name, search_json = excluded.search_json,
       max_scenes = excluded.max_scenes, updated_at = excluded.updated_at`,
  );
  const deleteArchive = db.prepare('DELETE FROM saved_archive_searches WHERE id = ?');
  const getTile = db.prepare<[string], { content_type: string; body: Buffer }>(
    'SELECT content_type, body FROM tiles WHERE url = ?',
  );
  const getPrice = db.prepare<[string], { total: number; quoted_at: string }>(
    'SELECT total, quoted_at FROM composed_prices WHERE entry_id = ?',
  );
  const putPrice = db.prepare(
    'INSERT OR REPLACE INTO composed_prices (entry_id, total, quoted_at) VALUES (?, ?, ?)',
  );
  const deletePrice = db.prepare('DELETE FROM composed_prices WHERE entry_id = ?');
  const putTile = db.prepare(
    'INSERT OR REPLACE INTO tiles (url, content_type, body, fetched_at) VALUES (?, ?, ?, ?)',
  );

  /** A settings row read through its schema; what it drops is kept aside first (kept-aside.ts). */
  const aside = <T>(key: string, raw: string, read: (d: OnDropped) => T): T =>
    readKeepingAside(dataDir, key, raw, onDropped, read);

  return {
    file,
    settings(): StoredSettings {
      const row = getSetting.get('settings');
      if (!row) return structuredClone(DEFAULT_SETTINGS);
      return aside('settings', row.value_json, (d) =>
        readSettings(row.value_json, DEFAULT_SETTINGS, d),
      );
    },
    saveSettings(s: StoredSettings): void {
      putSetting.run('settings', writeSettings(s));
    },
    /**
     * What the stored API key is bound to (see key-binding.ts): an origin, `embedded`, null for
     * nothing; undefined when never recorded (a key stored by an older version).
     */
    keyBinding(): string | null | undefined {
      const row = getSetting.get('apiKeyBinding');
      if (!row) return undefined;
      // Unreadable: bound to nothing, so the key is asked for again rather than sent anywhere.
      return aside('apiKeyBinding', row.value_json, (d) =>
        readValue(row.value_json, KeyBindingValue, 'apiKeyBinding', null, d),
      );
    },
    saveKeyBinding(binding: string | null): void {
      putSetting.run('apiKeyBinding', JSON.stringify(binding));
    },
    /** Which services' data the mirror holds (see mirror-source.ts); undefined: never recorded. */
    mirrorSource(): MirrorSourceState | undefined {
      const row = getSetting.get('mirrorSource');
      if (!row) return undefined;
      return aside('mirrorSource', row.value_json, (d) =>
        readValue<MirrorSourceState | undefined>(
          row.value_json,
          MirrorSourceValue,
          'mirrorSource',
          undefined,
          d,
        ),
      );
    },
    saveMirrorSource(state: MirrorSourceState): void {
      putSetting.run('mirrorSource', JSON.stringify(state));
    },
    /** The basket's records, oldest first (basket.ts); empty when never saved. */
    basket(): StoredBasketEntry[] {
      const row = getSetting.get('basket');
      if (!row) return [];
      return aside('basket', row.value_json, (d) =>
        readList(row.value_json, BasketEntryValue, 'basket', d),
      );
    },
    saveBasket(entries: readonly StoredBasketEntry[]): void {
      putSetting.run('basket', JSON.stringify(entries));
    },
    savedSearches(): SavedSearch[] {
      return listSearches.all().flatMap((r) => fromRow(r, onDropped));
    },
    saveSearch(input: { id?: string | undefined; name: string; query: unknown }): SavedSearch {
      const id = input.id ?? randomUUID();
      upsertSearch.run({
        id,
        name: input.name,
        query_json: JSON.stringify(input.query),
        now: new Date().toISOString(),
      });
      return fromRow(getSearch.get(id)!, onDropped)[0]!;
    },
    removeSearch(id: string): boolean {
      return deleteSearch.run(id).changes > 0;
    },
    /** The saved archive searches (validated by dispatch when saved), by name. */
    savedArchiveSearches(): StoredArchiveSearch[] {
      return listArchive.all().flatMap((r) => fromArchiveRow(r, onDropped));
    },
    saveArchiveSearch(input: Omit<SavedArchiveSearch, 'id'> & { id?: string | undefined }) {
      const id = input.id ?? randomUUID();
      upsertArchive.run({
        id,
        name: input.name,
        search_json: JSON.stringify(input.search),
        max_scenes: input.maxScenes,
        now: new Date().toISOString(),
      });
      return fromArchiveRow(getArchive.get(id)!, onDropped)[0]!;
    },
    removeArchiveSearch(id: string): boolean {
      return deleteArchive.run(id).changes > 0;
    },
    tile(url: string): { contentType: string; body: Buffer } | null {
      const row = getTile.get(url);
      return row ? { contentType: row.content_type, body: row.body } : null;
    },
    putTile(url: string, contentType: string, body: Buffer): void {
      putTile.run(url, contentType, body, new Date().toISOString());
    },
    /** The price a queued order had when it was composed (order-review.ts); null: none known. */
    composedPrice(entryId: string): QuotedPrice | null {
      const row = getPrice.get(entryId);
      return row ? { total: row.total, quotedAt: row.quoted_at } : null;
    },
    saveComposedPrice(entryId: string, price: QuotedPrice | null): void {
      if (price) putPrice.run(entryId, price.total, price.quotedAt);
      else deletePrice.run(entryId);
    },
    bytes(): number {
      return fileBytes(file);
    },
    close(): void {
      if (db.open) db.close();
    },
  };
}

export type DesktopStore = ReturnType<typeof openDesktopStore>;

interface Row {
  id: string;
  name: string;
  query_json: string;
  created_at: string;
  updated_at: string;
}

/** A saved archive search as stored, with when it was saved (ISO 8601). */
export type StoredArchiveSearch = SavedArchiveSearch & { createdAt: string; updatedAt: string };

interface ArchiveRow {
  id: string;
  name: string;
  search_json: string;
  max_scenes: number;
  created_at: string;
  updated_at: string;
}

/** A saved archive search as stored; none when its search no longer reads (named to onDropped). */
function fromArchiveRow(r: ArchiveRow, onDropped: OnDropped): StoredArchiveSearch[] {
  const what = `saved archive search ${r.id}`;
  const search = readValue(r.search_json, ArchiveSearchValue, what, null, onDropped);
  if (!search) return [];
  const { id, name } = r;
  return [
    { id, name, search, maxScenes: r.max_scenes, createdAt: r.created_at, updatedAt: r.updated_at },
  ];
}

/** A saved catalog search as stored; none when its query no longer reads (named to onDropped). */
function fromRow(r: Row, onDropped: OnDropped): SavedSearch[] {
  const query = readValue(r.query_json, SavedQueryValue, `saved search ${r.id}`, null, onDropped);
  if (!query) return [];
  const { id, name } = r;
  return [{ id, name, query, createdAt: r.created_at, updatedAt: r.updated_at }];
}

/** A SQLite database's bytes on disk, its WAL and shared-memory files included. */
export function fileBytes(file: string): number {
  let n = 0;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      n += fs.statSync(f).size;
    } catch {
      // absent: nothing to count
    }
  }
  return n;
}

/**
 * Texts many catalog records share, stored once in `catalog_shared` and named by id from each
 * record blob (`record-blob.ts`):
 *
 * - `value`: a JSON value records repeat whole: a UTM zone's `proj:wkt2` (about 1 kB, the
 *   same in every record of the zone), the `stac_extensions` list. At most
 *   `MAX_SHARED_VALUES` (a service sending a different one per record would otherwise grow
 *   the table by a row per record): past it, values stay in the records.
 * - `dictionary`: the zlib preset dictionary record blobs are compressed with, learned from
 *   the first `DICTIONARY_SAMPLES` records a connection packs while the database has none:
 *   those that bring something new (they compress to more than `NOVEL_SHARE` of their length
 *   against what is kept already: another collection, another platform's properties), at
 *   most the last `DICTIONARY_BYTES` of them. Records packed before it name no dictionary.
 *
 * Rows are never changed or reused (`AUTOINCREMENT`): a blob's ids stay valid for as long as
 * the blob. `forgetCatalogShared` empties the table with the records (`clear`).
 */
import zlib from 'node:zlib';
import type Database from 'better-sqlite3';
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const catalogShared = sqliteTable(
  'catalog_shared',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `value` or `dictionary`. */
    kind: text('kind').notNull(),
    text: text('text').notNull(),
  },
  (t) => [uniqueIndex('catalog_shared_kind_text').on(t.kind, t.text)],
);

export const MAX_SHARED_VALUES = 10_000;
export const DICTIONARY_SAMPLES = 128;
export const DICTIONARY_BYTES = 12 * 1024;
/**
 * A sample joins the dictionary when it compresses to more than this share of its length
 * against it: records much like those kept add nothing (measured on the bulk generator's
 * records: 212 B a record against 238 B from the last samples whatever they were).
 */
const NOVEL_SHARE = 1 / 6;

export interface Dictionary {
  readonly id: number;
  readonly bytes: Buffer;
}

/** One connection's view of `catalog_shared`, cached (the table only grows). */
export class SharedTexts {
  private readonly texts = new Map<number, string>();
  /** Dictionaries' bytes by id: a blob's decoding reuses the same buffer (`record-blob.ts`). */
  private readonly dictionaries = new Map<number, Buffer>();
  private readonly values = new Map<string, number>();
  private valueCount = 0;
  private current: Dictionary | null = null;
  /** The dictionary being learned, and how many records it has seen. */
  private learned = '';
  private seen = 0;
  /** The highest row id this cache knows (read or inserted). */
  private newest = 0;
  private readonly maxId: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly insert: Database.Statement;
  private readonly find: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    this.byId = sqlite.prepare('SELECT text FROM catalog_shared WHERE id = ?').pluck();
    this.insert = sqlite.prepare(
      'INSERT INTO catalog_shared (kind, text) VALUES (?, ?) ON CONFLICT DO NOTHING',
    );
    this.find = sqlite.prepare('SELECT id FROM catalog_shared WHERE kind = ? AND text = ?').pluck();
    this.maxId = sqlite.prepare('SELECT max(id) FROM catalog_shared').pluck();
    this.load();
  }

  /**
   * Reads the whole table (small: at most MAX_SHARED_VALUES values and a few dictionaries), so
   * decoding inside another statement (`eo_catalog_record` in a search) never has to query.
   */
  private load(): void {
    const rows = this.sqlite.prepare('SELECT id, kind, text FROM catalog_shared').all() as Array<{
      id: number;
      kind: string;
      text: string;
    }>;
    this.newest = 0;
    for (const r of rows) {
      this.newest = Math.max(this.newest, r.id);
      this.texts.set(r.id, r.text);
      if (r.kind === 'value') this.values.set(r.text, r.id);
    }
    this.valueCount = this.countValues();
    this.current = this.latestDictionary();
  }

  private countValues(): number {
    return this.sqlite
      .prepare("SELECT count(*) FROM catalog_shared WHERE kind = 'value'")
      .pluck()
      .get() as number;
  }

  private latestDictionary(): Dictionary | null {
    const row = this.sqlite
      .prepare(
        "SELECT id, text FROM catalog_shared WHERE kind = 'dictionary' ORDER BY id DESC LIMIT 1",
      )
      .get() as { id: number; text: string } | undefined;
    return row ? { id: row.id, bytes: Buffer.from(row.text, 'utf8') } : null;
  }

  /**
   * Drops the cache when rows it knows are gone: a transaction that inserted them rolled back
   * (a failed page write). Their ids are then given to the next texts inserted (AUTOINCREMENT
   * rolls back too), so a cached id must never be used past a rollback. Called before a write.
   */
  revalidate(): void {
    if (((this.maxId.get() as number | null) ?? 0) < this.newest) this.reset();
  }

  /** The text of a row; throws when the database has no such row (a damaged mirror). */
  text(id: number): string {
    let t = this.texts.get(id);
    if (t === undefined) {
      t = this.byId.get(id) as string | undefined;
      if (t === undefined) throw new Error(`catalog_shared has no row ${id}`);
      this.texts.set(id, t);
    }
    return t;
  }

  /** The id of a shared value, stored on first use; null once the table holds its maximum. */
  valueId(value: string): number | null {
    const known = this.values.get(value);
    if (known !== undefined) return known;
    if (this.valueCount >= MAX_SHARED_VALUES) return null;
    if (this.insert.run('value', value).changes > 0) this.valueCount++;
    const id = this.find.get('value', value) as number;
    this.newest = Math.max(this.newest, id);
    this.values.set(value, id);
    this.texts.set(id, value);
    return id;
  }

  /** The dictionary new blobs are compressed with (null while it is being learned). */
  get dictionary(): Dictionary | null {
    return this.current;
  }

  /** Bytes of a dictionary named by a blob (0: none). */
  dictionaryBytes(id: number): Buffer | null {
    if (id === 0) return null;
    if (this.current?.id === id) return this.current.bytes;
    let bytes = this.dictionaries.get(id);
    if (bytes === undefined) {
      bytes = Buffer.from(this.text(id), 'utf8');
      this.dictionaries.set(id, bytes);
    }
    return bytes;
  }

  /**
   * A packed record's text while no dictionary exists: after `DICTIONARY_SAMPLES` of them the
   * dictionary is made (and used from the next record on).
   */
  sample(text: string): void {
    if (this.current !== null) return;
    this.seen++;
    const novel =
      this.learned.length === 0 ||
      zlib.deflateRawSync(Buffer.from(text, 'utf8'), {
        level: 6,
        dictionary: Buffer.from(this.learned, 'utf8'),
      }).length >
        text.length * NOVEL_SHARE;
    if (novel) this.learned = (this.learned + text).slice(-DICTIONARY_BYTES);
    if (this.seen < DICTIONARY_SAMPLES) return;
    const kept = this.learned;
    this.learned = '';
    this.seen = 0;
    this.insert.run('dictionary', kept);
    // Read back: the stored text (UTF-8 in SQLite) is what every later reader decodes with.
    this.current = this.latestDictionary();
    if (this.current) this.newest = Math.max(this.newest, this.current.id);
  }

  /** Forget everything cached (the table was emptied). */
  reset(): void {
    this.texts.clear();
    this.dictionaries.clear();
    this.values.clear();
    this.learned = '';
    this.seen = 0;
    this.load();
  }
}

/**
 * The values of a record (its `details` and their `properties`) that records share whole,
 * as JSON texts: a zone's WKT (or PROJJSON) and the extension list.
 */
export function sharedValuesOf(
  details: Record<string, unknown>,
  p: Record<string, unknown>,
): string[] {
  const out: string[] = [];
  for (const v of [p['proj:wkt2'], p['proj:projjson'], details.stac_extensions])
    if (v !== undefined) out.push(JSON.stringify(v));
  return out;
}

const connections = new WeakMap<Database.Database, SharedTexts>();

/** The connection's shared texts (one cache per connection). */
export function sharedTexts(sqlite: Database.Database): SharedTexts {
  let s = connections.get(sqlite);
  if (!s) connections.set(sqlite, (s = new SharedTexts(sqlite)));
  return s;
}

/** Empties `catalog_shared` (with the catalog records: nothing names its rows any more). */
export function forgetCatalogShared(sqlite: Database.Database): void {
  sqlite.prepare('DELETE FROM catalog_shared').run();
  connections.get(sqlite)?.reset();
}

/**
 * A catalog record's JSON text as a small BLOB (`catalog_records.record` of the compact layout),
 * and back, byte for byte.
 *
 * 1. Shared values (`shared-texts.ts`: a zone's WKT, the extension list) are replaced in the
 *    text by `\x01<id in base 36>\x02`. JSON text never holds a raw control character, so the
 *    markers cannot be confused with the record's own characters (a text that holds one anyway
 *    is packed without markers, flag bit 0 clear).
 * 2. The rest is compressed with raw deflate (zlib level 9) against a preset dictionary: the
 *    database's learned dictionary followed by the record's **context**, text made from its
 *    own columns (`contextText`: id, item id, created/updated/acquired instants, footprint
 *    JSON from the geometry BLOB). What the columns already hold costs a back-reference of 2
 *    or 3 bytes instead of its digits; an asset href that differs from the dictionary's only
 *    by the record's id is the dictionary's plus a reference to the id.
 *
 * Layout: byte 0 flags (bit 0: markers present), varint dictionary id (0: none), 2 bytes
 * (little-endian) of the CRC-32 of the compressed text, deflate data. Decoding needs the same
 * context, so it takes the row's columns: they are written with the blob and never changed
 * without it. Raw deflate has no check of its own, so a blob decoded with other columns (or
 * damaged) would read as some other text: the CRC makes that an error.
 *
 * A record may also be **stored as its text** (`storeRecordText`: flag bit 1, then the UTF-8
 * bytes, nothing else): what a sync writes so its pages go to disk at the link's pace, packed
 * later, in an idle moment (`compact/packing.ts`). It reads back through `unpackRecord` too,
 * and needs no context.
 */
import zlib from 'node:zlib';
import { isoTimestamp } from '@eo/domain';
import { geometryJson } from './geometry-blob';
import type { SharedTexts } from './shared-texts';
import { ByteReader, ByteWriter } from './varint';

/** The columns a record blob is compressed against (as stored in its row). */
export interface RecordContext {
  readonly id: string;
  readonly itemId: string;
  readonly createdAtUs: number;
  readonly updatedAtUs: number;
  readonly datetimeUs: number | null;
  readonly geometry: Uint8Array | null;
}

/** A shared value shorter than this stays in the record (a marker would save little). */
export const MIN_SHARED_VALUE = 64;
/** A footprint whose JSON is longer stays out of the context (it would push out the dictionary). */
const MAX_CONTEXT_GEOMETRY = 8 * 1024;
/** Bounds inflating a damaged blob (a record is a few kB). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
const MARKERS = 1;
const STORED = 2;
// memLevel 8: the same bytes on generated records as 9 (253 B each), with half the hash table
// to allocate and clear per record: 48 against 51 µs a record, measured side by side.
const DEFLATE: zlib.ZlibOptions = { level: 9, memLevel: 8 };

function instantText(us: number | null): string {
  if (us === null) return '';
  try {
    return `"${isoTimestamp.format(us, { offset: 'Z', fractionDigits: 3 })}"`;
  } catch {
    return '';
  }
}

/** The context text of a row: what its record is likely to repeat, as the record writes it. */
export function contextText(c: RecordContext): string {
  let geometry = c.geometry === null ? '' : geometryJson(c.geometry);
  if (geometry.length > MAX_CONTEXT_GEOMETRY) geometry = '';
  return (
    JSON.stringify(c.id) +
    JSON.stringify(c.itemId) +
    instantText(c.createdAtUs) +
    instantText(c.updatedAtUs) +
    instantText(c.datetimeUs) +
    geometry
  );
}

/**
 * A learned dictionary followed by room for a context, per dictionary: a record's preset
 * dictionary is written into it rather than a new buffer of ~12 kB allocated and copied for
 * each record (zlib copies the dictionary into its window before the call returns).
 */
const scratch = new WeakMap<Buffer, Buffer>();
const CONTEXT_ROOM = MAX_CONTEXT_GEOMETRY + 1024;

function presetDictionary(dictionary: Buffer | null, c: RecordContext): Buffer {
  const text = contextText(c);
  if (dictionary === null) return Buffer.from(text, 'utf8');
  let room = scratch.get(dictionary);
  if (room === undefined) {
    room = Buffer.allocUnsafe(dictionary.length + CONTEXT_ROOM);
    dictionary.copy(room);
    scratch.set(dictionary, room);
  }
  // A context longer than the room (`write` would cut it short) gets a buffer of its own.
  if (Buffer.byteLength(text, 'utf8') > CONTEXT_ROOM)
    return Buffer.concat([dictionary, Buffer.from(text, 'utf8')]);
  const n = room.write(text, dictionary.length, 'utf8');
  return room.subarray(0, dictionary.length + n);
}

const hasControlMarker = (s: string) => s.includes('\x01') || s.includes('\x02');

/**
 * The blob of `json` (the record's text, kept exactly), with `sharedValues` (JSON texts of
 * values it holds that records share) stored once in `shared`.
 */
export function packRecord(
  json: string,
  sharedValues: readonly string[],
  context: RecordContext,
  shared: SharedTexts,
): Buffer {
  shared.revalidate();
  let text = json;
  let flags = 0;
  if (!hasControlMarker(json)) {
    for (const value of sharedValues) {
      if (value.length < MIN_SHARED_VALUE || !text.includes(value)) continue;
      const id = shared.valueId(value);
      if (id === null) continue;
      text = text.split(value).join(`\x01${id.toString(36)}\x02`);
      flags = MARKERS;
    }
  }
  const dictionary = shared.dictionary;
  if (dictionary === null) shared.sample(text);
  const bytes = Buffer.from(text, 'utf8');
  const header = new ByteWriter();
  header.byte(flags);
  header.uint(dictionary?.id ?? 0);
  const check = zlib.crc32(bytes);
  header.byte(check & 0xff);
  header.byte((check >>> 8) & 0xff);
  const body = zlib.deflateRawSync(bytes, {
    ...DEFLATE,
    dictionary: presetDictionary(dictionary?.bytes ?? null, context),
  });
  return Buffer.concat([header.done(), body]);
}

/** The blob of a record kept as its text, to be packed later (it needs no context). */
export function storeRecordText(json: string): Buffer {
  const blob = Buffer.allocUnsafe(1 + Buffer.byteLength(json, 'utf8'));
  blob[0] = STORED;
  blob.write(json, 1, 'utf8');
  return blob;
}

/** The text of a blob made by `storeRecordText`; null for a packed one. */
export function storedText(blob: Uint8Array): string | null {
  if (blob.length === 0 || (blob[0]! & STORED) === 0) return null;
  return Buffer.from(blob.buffer, blob.byteOffset + 1, blob.length - 1).toString('utf8');
}

/** The record's JSON text, exactly as given to `packRecord` or `storeRecordText`. */
export function unpackRecord(
  blob: Uint8Array,
  context: RecordContext,
  shared: SharedTexts,
): string {
  const stored = storedText(blob);
  if (stored !== null) return stored;
  const r = new ByteReader(blob);
  const flags = r.byte();
  const dictionary = shared.dictionaryBytes(r.uint());
  const check = r.byte() + r.byte() * 256;
  const bytes = zlib.inflateRawSync(blob.subarray(r.pos), {
    dictionary: presetDictionary(dictionary, context),
    maxOutputLength: MAX_RECORD_BYTES,
  });
  if ((zlib.crc32(bytes) & 0xffff) !== check)
    throw new RangeError('record blob: does not match its row (damaged, or its columns changed)');
  const text = bytes.toString('utf8');
  if ((flags & MARKERS) === 0) return text;
  const parts = text.split('\x01');
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    const end = part.indexOf('\x02');
    if (end < 0) throw new RangeError('record blob: unterminated shared value');
    out += shared.text(parseInt(part.slice(0, end), 36)) + part.slice(end + 1);
  }
  return out;
}

/**
 * What catalog search compares: the value a property path names in a record (`readPath`), that
 * value typed for comparison (`searchValue`), and the one total order over typed values
 * (`compareSearchValues`). `./evaluate.ts` documents the semantics built on these.
 */
import type { CatalogRecord } from '../resources/catalog';
import { tryParseRfc3339 } from '../time/codecs';
import { isTimestampProperty, resolvePath, type ResolvedPath } from './paths';

/**
 * A comparable value: a number, a string, a boolean, or (on timestamp paths) an instant in
 * microseconds, which is a number. Anything else a record holds (null, arrays, objects) is
 * "missing" for search and is represented by `undefined`.
 */
export type SearchValue = number | string | boolean;

/** Reads a record's value at a path of `query` / `sort_by` (rules in `./paths.ts`); raw, untyped. */
export function readPath(record: CatalogRecord, path: string): unknown {
  return readResolved(record, resolvePath(path));
}

/**
 * Reads a resolved path. Properties are read only when they are the object's own keys, so paths
 * such as `constructor` or `__proto__` name nothing rather than an inherited member.
 */
export function readResolved(record: CatalogRecord, path: ResolvedPath): unknown {
  if (path.kind === 'property') {
    const props = record.details.properties;
    return Object.hasOwn(props, path.key) ? props[path.key] : undefined;
  }
  switch (path.field) {
    case 'id':
      return record.id;
    case 'item_id':
      return record.details.id;
    case 'collection':
      return record.details.collection;
    default:
      return record[path.field];
  }
}

/**
 * A raw value typed for comparison. On a timestamp path (`isTimestampProperty`) only a string
 * that parses as RFC 3339 counts, as its instant; elsewhere numbers (not NaN), strings and
 * booleans count as themselves. Everything else is missing (`undefined`).
 */
export function searchValue(raw: unknown, timestamp: boolean): SearchValue | undefined {
  if (timestamp) {
    if (typeof raw !== 'string') return undefined;
    const r = tryParseRfc3339(raw);
    return r.ok ? r.value : undefined;
  }
  switch (typeof raw) {
    case 'number':
      return Number.isNaN(raw) ? undefined : raw;
    case 'string':
    case 'boolean':
      return raw;
    default:
      return undefined;
  }
}

/** A compiled reader of one path: record -> typed value or undefined (missing). */
export type ValueReader = (record: CatalogRecord) => SearchValue | undefined;

/** Resolves a path once and returns its typed reader. */
export function valueReader(path: string): ValueReader {
  const resolved = resolvePath(path);
  const timestamp = isTimestampProperty(path);
  return (record) => searchValue(readResolved(record, resolved), timestamp);
}

/**
 * Strings in Unicode code point order, which is the byte order of their UTF-8 encoding, so it
 * is exactly SQLite's BINARY collation on a UTF-8 database. It differs from JavaScript's `<`
 * (UTF-16 code units) only when a character above U+FFFF meets one in U+E000..U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (0xD800..0xDFFF, code points above U+FFFF) go after 0xE000..0xFFFF.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Rank of a value's type in the mixed-type order: numbers < strings < booleans. */
function typeRank(v: SearchValue): number {
  return typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2;
}

/**
 * The total order of typed values: numbers numerically, then strings in code point order,
 * then false, then true. Returns < 0, 0 or > 0.
 */
export function compareSearchValues(a: SearchValue, b: SearchValue): number {
  const ta = typeof a;
  if (ta === typeof b) {
    if (ta === 'string') return compareCodePoints(a as string, b as string);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return typeRank(a) - typeRank(b);
}

/**
 * Small readers shared by the mirror writers: the indexed columns of wire records, read with the
 * domain's lenient readers (see "Reading a real service" in README.md).
 */
import { isBlank, readId, readInstant, readText } from '@eo/domain';

/** The org id every mirrored catalog record is stored under (the mirror holds one org). */
export const MIRROR_ORG = 'mirror';

/** SQL reading a key column as `normId` does: ASCII whitespace trimmed, ASCII letters lower-cased. */
export const normSql = (column: string): string =>
  `lower(trim(${column}, char(32, 9, 10, 11, 12, 13)))`;

export type WireRecord = Record<string, unknown>;

export function str(r: WireRecord, key: string): string | null {
  return readText(r[key]);
}

/** An id field: a non-empty string, or a number as its decimal string (a real service's ids). */
export function idOf(r: WireRecord, key: string): string | null {
  return readId(r[key]);
}

/** How an indexed column reads its field. */
export type ColumnKind = 'id' | 'text' | 'instant';

const READERS: Record<ColumnKind, (v: unknown) => unknown> = {
  id: readId,
  text: readText,
  instant: readInstant,
};

const WHAT: Record<ColumnKind, string> = {
  id: 'an id',
  text: 'a string',
  instant: 'a timestamp',
};

/** At most this much of a received value is quoted in a message. */
const MAX_QUOTED = 80;

/** A received value for a message: its JSON, shortened. */
export function quote(v: unknown): string {
  if (v === undefined) return 'nothing';
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > MAX_QUOTED ? `${s.slice(0, MAX_QUOTED)}…` : s;
}

/**
 * The column value of `field`, and whether the field was sent but could not be read (then the
 * column is NULL and the record is flagged not indexed). Blank values (null, `""`) read as NULL
 * and are not flagged: there was nothing to index.
 */
export function readColumn(
  r: WireRecord,
  field: string,
  kind: ColumnKind,
): { value: unknown; problem: string | null } {
  const raw = r[field];
  const value = READERS[kind](raw);
  if (value !== null || isBlank(raw)) return { value, problem: null };
  return { value, problem: `cannot read ${quote(raw)} as ${WHAT[kind]}` };
}

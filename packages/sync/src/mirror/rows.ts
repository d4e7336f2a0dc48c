/** Small readers shared by the mirror writers: typed fields of wire records, timestamps as µs. */
import { isoTimestamp, microTimestamp, type Instant } from '@eo/domain';

/** The org id every mirrored catalog record is stored under (the mirror holds one org). */
export const MIRROR_ORG = 'mirror';

export type WireRecord = Record<string, unknown>;

export function str(r: WireRecord, key: string): string | null {
  const v = r[key];
  return typeof v === 'string' ? v : null;
}

/** A timestamp field in either wire layout (ISO with `T`, or the micro layout), as µs. */
export function instantUs(r: WireRecord, key: string): Instant | null {
  const v = r[key];
  if (typeof v !== 'string') return null;
  const iso = isoTimestamp.tryParse(v);
  if (iso.ok) return iso.value;
  const micro = microTimestamp.tryParse(v);
  return micro.ok ? micro.value : null;
}

/**
 * `local:<entryId>` references to creates still in the outbox (see @eo/sync's README, "Local
 * ids"): how the pickers build them and how lists name them.
 */
import type { OutboxEntryView } from '../../shared/contract';

export const LOCAL_PREFIX = 'local:';

export function localRef(entryId: string, part?: string | number): string {
  return part === undefined ? `${LOCAL_PREFIX}${entryId}` : `${LOCAL_PREFIX}${entryId}#${part}`;
}

export function isLocalRef(id: string): boolean {
  return id.startsWith(LOCAL_PREFIX);
}

/** The entry id and the part after `#` of a local reference; null for a real id. */
export function parseLocalRef(id: string): { entryId: string; part: string | null } | null {
  if (!isLocalRef(id)) return null;
  const rest = id.slice(LOCAL_PREFIX.length);
  const hash = rest.indexOf('#');
  return hash < 0
    ? { entryId: rest, part: null }
    : { entryId: rest.slice(0, hash), part: rest.slice(hash + 1) };
}

/** "Field A (queued)": the name in the entry's input, else its summary. */
export function queuedName(entry: OutboxEntryView | undefined, fallback: string): string {
  if (!entry) return `${fallback} (not in the outbox)`;
  const name = entry.input['name'];
  return `${typeof name === 'string' && name ? name : entry.summary} (queued)`;
}

/**
 * The skeleton the list stores share (orders, AOIs): a reload when their records change or a
 * sync ends, and reads (the list, the open record's parts) that apply only if no newer read of
 * the same kind started meanwhile, with their status and any failure in words.
 */
import type { EventPayload } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';
import { latestOnly } from './latest';

export type ReadStatus = 'idle' | 'loading' | 'ready' | 'error';
type RecordKind = EventPayload<'records.changed'>['kinds'][number];

/** Calls `load` when records of `kind` change and after each sync; returns the unsubscribe. */
export function reloadOnChange(kind: RecordKind, load: () => Promise<void>): () => void {
  const bridge = useBridge();
  const offs = [
    bridge.on('records.changed', (p) => {
      if (p.kinds.includes(kind)) void load();
    }),
    bridge.on('sync.finished', () => void load()),
  ];
  return () => offs.forEach((off) => off());
}

/** Where a read reports: the store's own status and error fields. */
export type ReadReport = (status: ReadStatus, error: ReadableError | null) => void;

/**
 * A kind of read whose answers may overlap: each call fetches, and only the latest call applies
 * its answer (then `ready`) or its failure (`error`, in words). Resolves true when it applied.
 */
export function latestRead(): <T>(
  report: ReadReport,
  fetch: () => Promise<T>,
  apply: (value: T) => void,
) => Promise<boolean> {
  const loads = latestOnly();
  return async (report, fetch, apply) => {
    const current = loads.begin();
    report('loading', null);
    try {
      const value = await fetch();
      if (!current()) return false;
      apply(value);
      report('ready', null);
      return true;
    } catch (err) {
      if (current()) report('error', readableError(err));
      return false;
    }
  };
}

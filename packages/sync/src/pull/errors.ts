/** What a failed sync records in `sync_state.last_error_json`, and the engine's own errors. */
import { EoApiError, isEoClientError } from '@eo/api-client';
import { isDiskFull } from '../db/disk-full';

export interface SyncErrorInfo {
  readonly kind: string;
  readonly message: string;
  readonly status?: number;
  readonly code?: string;
}

export function describeSyncError(e: unknown): SyncErrorInfo {
  if (e instanceof EoApiError) {
    return {
      kind: e.kind,
      message: e.message,
      status: e.status,
      ...(e.code !== undefined ? { code: e.code } : {}),
    };
  }
  if (isEoClientError(e)) return { kind: e.kind, message: e.message };
  if (e instanceof Error && e.name === 'AbortError') return { kind: 'abort', message: e.message };
  // ENOSPC or SQLITE_FULL: the app says how much to free (db/disk-full.ts), not "report this".
  if (isDiskFull(e))
    return { kind: 'disk_full', message: e instanceof Error ? e.message : String(e) };
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/** A second `sync()` while one runs: syncs never overlap (see README.md). */
export class SyncBusyError extends Error {
  constructor() {
    super('a sync is already running on this mirror; wait for it (or abort it) first');
    this.name = 'SyncBusyError';
  }
}

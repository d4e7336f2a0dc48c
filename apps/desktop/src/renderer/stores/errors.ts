/**
 * Errors as people read them: what happened and what to do about it. Backend errors arrive as
 * ContractError codes; a bridge that is gone shows up as a plain Error.
 */
// The contract's own files, not its index: that brings every method's schemas (initial JS).
import { ContractError, toContractError } from '../../shared/contract/errors';

export interface ReadableError {
  readonly title: string;
  readonly message: string;
  /** What the user can do about it. */
  readonly hint: string;
  readonly code: string;
}

const HINTS: Record<string, { title: string; hint: string }> = {
  not_configured: {
    title: 'Not connected yet',
    hint: 'Enter the service URL and your API key under Connection & settings.',
  },
  working_offline: {
    title: 'Working offline',
    hint: 'Turn off "Work offline" on the Sync screen or in Connection & settings to reach the service.',
  },
  offline: {
    title: 'The service is not reachable',
    hint: 'Check the network connection or the service URL. Everything already mirrored stays searchable offline.',
  },
  unauthorized: {
    title: 'The API key was not accepted',
    hint: 'Enter a valid API key under Connection & settings (the old one may have been revoked).',
  },
  busy: {
    title: 'A sync is already running',
    hint: 'Wait for it to finish, or cancel it on the Sync screen.',
  },
  invalid_argument: {
    title: 'Some values are not valid',
    hint: 'Correct the highlighted fields and try again.',
  },
  unknown_method: {
    title: 'The app is out of step with its backend',
    hint: 'Restart the app; if it persists, reinstall it.',
  },
  conflict: {
    title: 'Not possible right now',
    hint: 'The item changed meanwhile: look at its current state and try again.',
  },
  disk_full: {
    title: 'The disk is full',
    hint: 'Free the room the message names (delete or move files on that disk), then try again. Nothing was lost.',
  },
  internal: {
    title: 'Something went wrong',
    hint: 'Try again. If it keeps happening, restart the app.',
  },
};

export function readableError(err: unknown): ReadableError {
  if (err instanceof Error && err.name === 'AccessDeniedError') {
    return {
      title: 'This page lost its connection to the app',
      message: err.message,
      hint: 'Open the address the app printed when it started.',
      code: 'unauthorized',
    };
  }
  // Plain `{ code, message }` data (as errors cross the preload) becomes a ContractError too.
  const e = err instanceof ContractError ? err : toContractError(err);
  const known = HINTS[e.code] ?? HINTS['internal']!;
  return { title: known.title, message: e.message, hint: known.hint, code: e.code };
}

/** Messages by dotted field path from an invalid_argument error (`form` for the whole input). */
export function fieldErrors(raw: unknown): Record<string, string> {
  const err = toContractError(raw);
  if (err.code !== 'invalid_argument') return {};
  const out: Record<string, string> = {};
  for (const issue of err.details?.issues ?? []) {
    const key = issue.path || 'form';
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}

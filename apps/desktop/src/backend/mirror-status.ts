/**
 * The mirror as the Sync screen shows it: per resource, last complete sync, last error with
 * what to do about it, and how many records are stored. Also clearing the mirror (the outbox
 * and what this client created are kept: they cannot be pulled again).
 */
import { diskFullMessage, RESOURCES, type Mirror, type ResourceStatus } from '@eo/sync';
import type { SyncError, SyncStatus } from '../shared/contract';

export function makeMirrorStatus(mirror: Mirror, dataDir: string) {
  return {
    status(running: boolean, states: readonly ResourceStatus[]): SyncStatus {
      const counts = mirror.counts();
      return {
        running,
        resources: RESOURCES.map((resource) => {
          const s = states.find((x) => x.resource === resource);
          return {
            resource,
            lastCompleteAt:
              s?.lastCompleteAtUs != null
                ? new Date(s.lastCompleteAtUs / 1000).toISOString()
                : null,
            lastError: s?.lastError ? describeForUser(s.lastError, dataDir) : null,
            count: counts[resource],
            drift: s?.drift ?? 0,
            notIndexed: s?.notIndexed ?? 0,
            incomplete: s?.incomplete ?? false,
            incompleteReason: s?.incompleteReason ?? null,
          };
        }),
      };
    },
    clear: () => mirror.clear(),
  };
}

/** A stored sync error in words, with the action that fixes it. */
export function describeForUser(
  e: {
    kind: string;
    message: string;
    status?: number | undefined;
    code?: string | undefined;
  },
  dataDir: string,
): SyncError {
  const code = e.code ?? (e.status !== undefined ? `${e.kind}_${e.status}` : e.kind);
  let hint: string;
  if (e.kind === 'disk_full')
    // What the disk lacks now (the user may have freed some since), as the CLI says it.
    hint = `${capitalised(diskFullMessage(dataDir))}. The next sync resumes where this one stopped.`;
  else if (e.kind === 'abort')
    hint = 'The sync was cancelled. Run it again: it resumes where it stopped.';
  else if (e.kind === 'network' || e.kind === 'timeout')
    hint =
      'The service could not be reached. Check the network and the service URL in Settings; the next sync resumes where this one stopped.';
  else if (e.status === 401)
    hint = 'The service refused the API key. Enter a valid key in Settings.';
  else if (e.status === 403) hint = 'The API key may not read this. Ask your administrator.';
  else if (e.status === 429)
    hint = 'The service asked to slow down. Wait a minute, then sync again.';
  else if (e.status !== undefined && e.status >= 500)
    hint =
      'The service had a problem. Try again later; the next sync resumes where this one stopped.';
  else hint = 'Sync again; if it keeps failing, report this message.';
  return { code, message: e.message, hint };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

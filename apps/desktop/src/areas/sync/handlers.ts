/** `sync.*` and `mirror.clear`: syncing the mirror, its status, emptying it. */
import { ContractError, type syncMethods } from '../../shared/contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { makeMirrorSource } from '../../backend/mirror-source';
import type { makeMirrorStatus } from '../../backend/mirror-status';
import type { SyncRunner } from '../../backend/sync-runner';

export type SyncHandlers = HandlersFor<keyof typeof syncMethods>;

export function syncHandlers(deps: {
  readonly runner: SyncRunner;
  readonly mirror: ReturnType<typeof makeMirrorStatus>;
  readonly source: ReturnType<typeof makeMirrorSource>;
}): SyncHandlers {
  const { runner, mirror, source } = deps;
  return {
    'mirror.clear': () => {
      if (runner.busy())
        throw new ContractError('busy', 'Cancel the running sync before clearing the mirror.');
      // The mirror empties its tables, its footprint cache and its file (checkpoint, VACUUM).
      mirror.clear();
      source.cleared();
      return { cleared: true as const };
    },
    'sync.run': (input) => runner.start(input?.resources),
    'sync.cancel': async () => {
      await runner.cancel();
      return runner.status();
    },
    'sync.status': () => runner.status(),
  };
}

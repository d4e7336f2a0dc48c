/** `sync.*` and `mirror.clear`: syncing the mirror, its status, emptying it. */
import type { LocalDatabase } from '@eo/sync';
import { ContractError, type syncMethods } from '../../shared/contract';
import type { CatalogView } from '../catalog-view';
import type { HandlersFor } from '../dispatch';
import type { makeMirrorSource } from '../mirror-source';
import type { makeMirrorStatus } from '../mirror-status';
import type { SyncRunner } from '../sync-runner';

export type SyncHandlers = HandlersFor<keyof typeof syncMethods>;

export function syncHandlers(deps: {
  readonly runner: SyncRunner;
  readonly local: LocalDatabase;
  readonly mirror: ReturnType<typeof makeMirrorStatus>;
  readonly source: ReturnType<typeof makeMirrorSource>;
  readonly catalog: CatalogView;
}): SyncHandlers {
  const { runner, local, mirror, source, catalog } = deps;
  return {
    'mirror.clear': () => {
      if (runner.busy())
        throw new ContractError('busy', 'Cancel the running sync before clearing the mirror.');
      mirror.clear();
      source.cleared();
      catalog.invalidate();
      local.sqlite.pragma('wal_checkpoint(TRUNCATE)');
      local.sqlite.exec('VACUUM');
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

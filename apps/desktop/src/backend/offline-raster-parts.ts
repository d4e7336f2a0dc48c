/**
 * The backend's offline rasters, composed: the stored sites within the imagery budget, the
 * takes that fetch new ones through the current connection, their bytes for the raster worker
 * and their exports to files. `backend.ts` binds them to the `rasters.*` handlers.
 */
import type { Mirror } from '@eo/sync';
import type { StoredSettings } from './local-store';
import { makeOfflineRasters, type OfflineRasterSource } from './offline-rasters';
import { makeOfflineTakes, type TakeConnection } from './offline-takes';
import { makeRasterBytes } from './raster-bytes';
import { makeRasterExports } from './raster-export';

export function makeOfflineRasterParts(deps: {
  readonly mirror: Mirror;
  /** Sites taken offline; default the mirror's (`mirror.offline`). */
  readonly source?: OfflineRasterSource | undefined;
  readonly settings: () => StoredSettings;
  readonly connection: () => TakeConnection | null;
  readonly noService: () => Error;
}) {
  const { mirror } = deps;
  const rasters = makeOfflineRasters(deps.source ?? mirror.offline, () => {
    // The imagery store counts the mirror's stored rasters in its bytes: the quicklooks are
    // the rest.
    const mirrored = mirror.offline
      .list()
      .reduce((sum, r) => sum + (r.state === 'stored' ? (r.bytes ?? 0) : 0), 0);
    return {
      limitBytes: deps.settings().imageryBudgetMb * 2 ** 20,
      quicklookBytes: Math.max(0, mirror.imagery.counts().bytes - mirrored),
    };
  });
  const takes = makeOfflineTakes({
    offline: mirror.offline,
    connection: deps.connection,
    noService: deps.noService,
    settings: deps.settings,
  });
  return {
    rasters,
    takes,
    bytes: makeRasterBytes(rasters),
    exports: makeRasterExports(rasters),
  };
}

/** `rasters.*`: sites taken offline at full resolution (@eo/sync's stored windows), listed and removed. */
import type { rastersMethods } from '../../shared/contract';
import type { HandlersFor } from '../dispatch';
import type { OfflineRasters } from '../offline-rasters';

export type RastersHandlers = HandlersFor<keyof typeof rastersMethods>;

export function rastersHandlers(rasters: OfflineRasters): RastersHandlers {
  return {
    'rasters.list': () => rasters.list(),
    'rasters.remove': ({ id }) => ({ removed: rasters.remove(id) }),
  };
}

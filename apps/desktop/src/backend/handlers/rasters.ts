/**
 * `rasters.*`: sites taken offline at full resolution (@eo/sync's stored windows): listed and
 * removed, taken offline (started, followed, cancelled), and exported as GeoTIFFs.
 */
import type { rastersMethods } from '../../shared/contract';
import type { HandlersFor } from '../dispatch';
import type { OfflineRasters } from '../offline-rasters';
import type { OfflineTakes } from '../offline-takes';
import type { RasterExports } from '../raster-export';

export type RastersHandlers = HandlersFor<keyof typeof rastersMethods>;

export function rastersHandlers(
  rasters: OfflineRasters,
  takes: OfflineTakes,
  exports: RasterExports,
): RastersHandlers {
  return {
    'rasters.list': () => rasters.list(),
    'rasters.remove': ({ id }) => ({ removed: rasters.remove(id) }),
    'rasters.take': (input) => takes.take(input),
    'rasters.takes': () => ({ takes: takes.list() }),
    'rasters.cancel': ({ key }) => ({ cancelled: takes.cancel(key) }),
    'rasters.export': (req) => exports.export(req),
  };
}

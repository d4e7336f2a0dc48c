/**
 * `rasters.*`: sites taken offline at full resolution (@eo/sync's stored windows): listed (with
 * the imagery budget) and removed, taken offline (started, followed, paused, resumed,
 * cancelled), with the link as measured for the estimate before a take, and exported as
 * GeoTIFFs.
 */
import type { rastersMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { LinkMeter } from '../../backend/link-meter';
import type { OfflineRasters } from '../../backend/offline-rasters';
import type { OfflineTakes } from '../../backend/offline-takes';
import type { RasterExports } from '../../backend/raster-export';

export type RastersHandlers = HandlersFor<keyof typeof rastersMethods>;

export function rastersHandlers(
  rasters: OfflineRasters,
  takes: OfflineTakes,
  exports: RasterExports,
  link: () => ReturnType<LinkMeter['view']>,
): RastersHandlers {
  return {
    'rasters.list': () => rasters.list(),
    'rasters.remove': ({ id }) => ({ removed: rasters.remove(id) }),
    'rasters.take': (input) => takes.take(input),
    'rasters.takes': () => ({ takes: takes.list() }),
    'rasters.cancel': ({ key }) => ({ cancelled: takes.cancel(key) }),
    'rasters.export': (req) => exports.export(req),
    'rasters.pause': ({ key }) => ({ paused: takes.pause(key) }),
    'rasters.resume': ({ id }) => takes.resume(id),
    'rasters.link': () => ({ link: link() }),
  };
}

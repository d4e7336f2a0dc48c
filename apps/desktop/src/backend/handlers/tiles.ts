/** `tiles.get`: a basemap tile from the cache, or fetched from the configured tile URL. */
import type { tilesMethods } from '../../shared/contract';
import type { HandlersFor } from '../dispatch';
import type { makeTiles } from '../tiles';

export type TilesHandlers = HandlersFor<keyof typeof tilesMethods>;

export function tilesHandlers(
  getTile: ReturnType<typeof makeTiles>,
  tileUrl: () => string | null,
): TilesHandlers {
  return {
    'tiles.get': (t) => getTile(tileUrl(), t),
  };
}

/** `tiles.get`: a basemap tile from the cache, or fetched from the configured tile URL. */
import type { tilesMethods } from './contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { makeTiles } from '../../backend/tiles';

export type TilesHandlers = HandlersFor<keyof typeof tilesMethods>;

export function tilesHandlers(
  getTile: ReturnType<typeof makeTiles>,
  tileUrl: () => string | null,
): TilesHandlers {
  return {
    'tiles.get': (t) => getTile(tileUrl(), t),
  };
}

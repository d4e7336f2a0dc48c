/**
 * The optional online basemap: a Leaflet GridLayer whose tiles come through the contract's
 * `tiles.get`, so the backend fetches them from the tile URL in settings, caches them in SQLite
 * and serves them back when offline. The renderer never fetches tiles itself (the CSP would not
 * allow it, and offline it would get nothing).
 */
import L from 'leaflet';

export interface TileData {
  readonly contentType: string;
  readonly base64: string;
}

export type TileSource = (z: number, x: number, y: number) => Promise<TileData | null>;

export class BridgeTileLayer extends L.GridLayer {
  constructor(
    private readonly source: TileSource,
    options: L.GridLayerOptions = {},
  ) {
    super({ maxNativeZoom: 19, ...options });
  }

  override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const img = document.createElement('img');
    img.alt = '';
    img.setAttribute('role', 'presentation');
    img.decoding = 'async';
    this.source(coords.z, coords.x, coords.y).then(
      (tile) => {
        if (!tile) {
          // No tile URL (any more): an invisible tile; the offline basemap shows through.
          img.style.visibility = 'hidden';
          done(undefined, img);
          return;
        }
        img.onload = () => done(undefined, img);
        img.onerror = () => done(new Error('tile image could not be decoded'), img);
        img.src = `data:${tile.contentType};base64,${tile.base64}`;
      },
      (err: unknown) => {
        // Not cached and not fetched: invisible, the offline basemap under it shows; the
        // layer's `tileerror` carries the reason (tile-health.ts).
        img.style.visibility = 'hidden';
        done(err instanceof Error ? err : new Error(String(err)), img);
      },
    );
    return img;
  }
}

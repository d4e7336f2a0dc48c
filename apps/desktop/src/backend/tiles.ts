/**
 * The optional online basemap: tiles fetched by the backend (never by the renderer, whose CSP
 * allows no remote origin) and cached in SQLite, so a tile seen once is served again offline.
 * Cache first: basemap tiles rarely change and field links are slow.
 */
import { ContractError } from '../shared/contract';
import type { DesktopStore } from './local-store';

const MAX_TILE_BYTES = 2 * 1024 * 1024;

export interface Tile {
  contentType: string;
  base64: string;
}

export function tileUrlFor(template: string, t: { z: number; x: number; y: number }): string {
  return template
    .replaceAll('{z}', String(t.z))
    .replaceAll('{x}', String(t.x))
    .replaceAll('{y}', String(t.y));
}

export function makeTiles(
  store: DesktopStore,
  options: { fetch?: typeof fetch; timeoutMs?: number; cachedOnly?: () => boolean } = {},
) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async function getTile(
    template: string | null,
    t: { z: number; x: number; y: number },
  ): Promise<Tile | null> {
    if (template === null) return null;
    const url = tileUrlFor(template, t);
    const cached = store.tile(url);
    if (cached) return { contentType: cached.contentType, base64: cached.body.toString('base64') };
    if (options.cachedOnly?.()) {
      throw new ContractError(
        'working_offline',
        'working offline: only tiles kept before are shown',
      );
    }
    // Not cached and not fetched: the reason, in words, for the map's "Online tiles
    // unavailable" note (the offline basemap under the tiles still shows).
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
    } catch (e) {
      const why =
        e instanceof Error && e.name === 'TimeoutError'
          ? `no answer within ${Math.round(timeoutMs / 1000)} s`
          : 'the tile server could not be reached';
      throw new ContractError('offline', why);
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (!res.ok) throw new ContractError('internal', `the tile server answered HTTP ${res.status}`);
    if (!type.startsWith('image/')) {
      throw new ContractError(
        'internal',
        `the tile server sent ${type || 'no type'}, not an image`,
      );
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (body.length === 0 || body.length > MAX_TILE_BYTES) {
      throw new ContractError('internal', `the tile server sent a tile of ${body.length} bytes`);
    }
    store.putTile(url, type, body);
    return { contentType: type, base64: body.toString('base64') };
  };
}

/**
 * Which mirrored catalog record pictures an archive scene (order items and AOI scene assets name
 * scenes by their STAC id, `details.id`; the quicklooks are kept per catalog record). Asked of
 * the backend's `catalog.scenes`, the lookups of one tick in one call (an orders screen asks for
 * every item's scenes at once), remembered per bridge once found; a scene not mirrored is asked
 * again next time (a sync may have brought it).
 */
import type { Bridge } from '../../shared/contract';
// The basket's limits alone: its contract, like the contract's index, builds its schemas.
import { MAX_SCENE_LOOKUP } from '../../areas/basket/limits';
import { useBridge } from '../stores/bridge-provider';

interface Lookups {
  readonly found: Map<string, string>;
  queued: Set<string>;
  batch: Promise<void> | null;
}

const byBridge = new WeakMap<Bridge, Lookups>();

/** What the contract takes as an id (trimmed, 1..200): anything else cannot be mirrored. */
const askable = (id: string) => id.trim() === id && id.length > 0 && id.length <= 200;

function lookupsOf(bridge: Bridge): Lookups {
  let l = byBridge.get(bridge);
  if (!l) {
    l = { found: new Map(), queued: new Set(), batch: null };
    byBridge.set(bridge, l);
  }
  return l;
}

function ask(bridge: Bridge, l: Lookups, ids: readonly string[]): Promise<void> {
  for (const id of ids) l.queued.add(id);
  l.batch ??= Promise.resolve().then(async () => {
    const all = [...l.queued];
    l.queued = new Set();
    l.batch = null;
    for (let i = 0; i < all.length; i += MAX_SCENE_LOOKUP) {
      const sceneIds = all.slice(i, i + MAX_SCENE_LOOKUP);
      try {
        const { records } = await bridge.call('catalog.scenes', { sceneIds });
        for (const r of records) if (r.recordId) l.found.set(r.sceneId, r.recordId);
      } catch {
        // Not known now: the placeholder says so, and the next look asks again.
      }
    }
  });
  return l.batch;
}

/** The mirrored record of each scene id (null: the mirror has none). */
export async function recordsOfScenes(
  sceneIds: readonly string[],
): Promise<Map<string, string | null>> {
  const bridge = useBridge();
  const l = lookupsOf(bridge);
  const missing = [...new Set(sceneIds)].filter((id) => askable(id) && !l.found.has(id));
  if (missing.length > 0) await ask(bridge, l, missing);
  return new Map(sceneIds.map((id) => [id, l.found.get(id) ?? null]));
}

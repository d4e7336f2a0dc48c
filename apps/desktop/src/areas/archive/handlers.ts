/**
 * `archive.*`: saved archive searches (kept in the desktop store, run by the sync's archive
 * pass) and the scenes the mirror keeps for each, offline.
 */
import { footprintRing } from '@eo/catalog-store';
import type { Mirror } from '@eo/sync';
import type { ArchivePass, archiveMethods, SavedArchiveSearchView } from '../../shared/contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { DesktopStore, StoredArchiveSearch } from '../../backend/local-store';

export type ArchiveHandlers = HandlersFor<keyof typeof archiveMethods>;

const isoFromUs = (us: number | null) => (us === null ? null : new Date(us / 1000).toISOString());

export function archiveHandlers(
  mirror: Pick<Mirror, 'archive'>,
  store: DesktopStore,
): ArchiveHandlers {
  /** Each saved search with its last pass, if the mirror ran it. */
  const view = (s: StoredArchiveSearch): SavedArchiveSearchView => {
    const status = mirror.archive.searches().find((x) => x.searchId === s.id);
    const pass: ArchivePass | null = status
      ? {
          state: status.state,
          scenes: status.scenes,
          total: status.total,
          lastCompleteAt: isoFromUs(status.lastCompleteAtUs),
          error: status.lastError?.message ?? null,
        }
      : null;
    return { ...s, pass };
  };
  return {
    'archive.searches': () => store.savedArchiveSearches().map(view),
    'archive.save': (input) => view(store.saveArchiveSearch(input)),
    'archive.remove': ({ id }) => ({ removed: store.removeArchiveSearch(id) }),
    'archive.scenes': ({ searchId }) =>
      mirror.archive.scenes(searchId).map((s) => ({
        id: s.id,
        rank: s.rank,
        satelliteId: s.satelliteId,
        collectionId: s.collectionId,
        datetime: isoFromUs(s.datetimeUs),
        cloudCover: s.cloudCover,
        bbox: s.bbox,
        // The catalog's rule: the geometry's outer ring (simplified), else the bbox as a box.
        footprint: footprintRing(s.feature.geometry, s.bbox),
        thumbnail: s.thumbnail,
      })),
  };
}

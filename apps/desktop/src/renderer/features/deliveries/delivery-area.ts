/**
 * The delivery form's third source, "Records in an area from a file…": a field file read with
 * the shared preview (its own store, `deliveryAreaImport`); the picked features, taken together
 * (`mergedArea`), are the area; the mirrored catalog records whose footprint intersects it are
 * found with the catalog browser's own search (`catalog.search` with `intersects`, offline from
 * the mirror), at most as many as one delivery request takes (`LIMITS.maxIdsPerFilter`).
 */
import { CatalogSearchRequest, LIMITS } from '@eo/domain';
import { defineStore } from 'pinia';
import type { CatalogRow } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError } from '../../stores/errors';
import { defineFilePreviewStore, mergedArea, type Area } from '../../stores/file-preview-store';

export const useDeliveryAreaImportStore = defineFilePreviewStore('deliveryAreaImport');

/** Most records one delivery request delivers (its `catalog_ids`), and one search page gives. */
export const MAX_AREA_RECORDS = Math.min(LIMITS.maxIdsPerFilter, LIMITS.maxLimit);

/** The picked features of the preview as one area, or null (nothing picked). */
export function pickedArea(store: ReturnType<typeof useDeliveryAreaImportStore>): Area | null {
  const areas = store.pickedFeatures.flatMap((f) => (f.area ? [f.area as Area] : []));
  return areas.length > 0 ? mergedArea(areas) : null;
}

/** Answers of an older area are dropped when a newer search was started. */
let searchSeq = 0;

export const useDeliveryAreaStore = defineStore('deliveryArea', {
  state: () => ({
    searching: false,
    /** Null until an area was searched. */
    rows: null as CatalogRow[] | null,
    /** How many records intersect the area in all (more than `rows` when capped). */
    total: 0,
    error: null as string | null,
  }),
  getters: {
    ids: (s): string[] => s.rows?.map((r) => r.id) ?? [],
    capped: (s): boolean => s.rows !== null && s.total > s.rows.length,
  },
  actions: {
    async find(area: Area | null): Promise<void> {
      this.clear();
      const seq = searchSeq;
      if (!area) return;
      // The search's own schema (the mirror's and the service's): a merged area past the
      // geometry caps is said here, not sent.
      const query = CatalogSearchRequest.safeParse({
        intersects: area,
        limit: MAX_AREA_RECORDS,
        offset: 0,
      });
      if (!query.success) {
        this.error = `The picked features cannot be searched as one area: ${query.error.issues[0]?.message ?? 'not a valid area'}.`;
        return;
      }
      this.searching = true;
      try {
        const page = await useBridge().call('catalog.search', query.data);
        if (seq !== searchSeq) return;
        this.rows = page.items;
        this.total = page.total;
      } catch (err) {
        if (seq === searchSeq) this.error = readableError(err).message;
      } finally {
        if (seq === searchSeq) this.searching = false;
      }
    },

    /** Forgets the area's records; a search still under way is dropped. */
    clear(): void {
      searchSeq++;
      this.searching = false;
      this.rows = null;
      this.total = 0;
      this.error = null;
    },
  },
});

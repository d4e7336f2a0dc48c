/**
 * The index map drawn over the open AOI on the AOIs map: the AOI's mirrored index maps (their
 * visualizations' index PNGs, from the mirror: offline too), the chosen one (newest date by
 * default), whether it shows and how opaque it is. Reloaded when another AOI opens and after a
 * sync (which may have brought new ones).
 */
import { COLORMAPS, DEFAULT_COLORMAP } from '@eo/domain';
import { defineStore } from 'pinia';
import type { IndexMapView } from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import type { ReadableError } from '../../stores/errors';
import { latestRead, type ReadStatus } from '../../stores/list-reads';
import { quicklookUrl } from '../../ui/quicklook-source';
import type { MapImageOverlay } from '../../map/GeometryMap.vue';

const read = latestRead();

export const keyOf = (m: IndexMapView): string => `${m.visualizationId}|${m.date}`;

/** The legend's colour ramp as a CSS gradient, low to high (composites and gray as gray). */
export function legendGradient(colormap: string | null): string {
  const stops =
    COLORMAPS[colormap ?? ''] ?? COLORMAPS[colormap === 'rgb' ? 'gray' : DEFAULT_COLORMAP]!;
  return `linear-gradient(to right, ${stops.join(', ')})`;
}

/** An index value for the legend: at most three decimals, no trailing zeros. */
export const legendValue = (v: number): string => String(+v.toFixed(3));

export const useIndexMapStore = defineStore('aoi-index-map', {
  state: () => ({
    aoiId: null as string | null,
    maps: [] as IndexMapView[],
    status: 'idle' as ReadStatus,
    error: null as ReadableError | null,
    /** `<visualization id>|<date>` of the chosen map. */
    chosenKey: null as string | null,
    shown: true,
    opacity: 0.8,
  }),
  getters: {
    chosen(s): IndexMapView | null {
      return s.maps.find((m) => keyOf(m) === s.chosenKey) ?? null;
    },
    /** What the map draws: the chosen map over its bounds, when shown. */
    overlay(): MapImageOverlay | null {
      const m = this.chosen;
      if (!m || !this.shown) return null;
      const url = quicklookUrl(m.visualizationId, m.variant);
      if (!url) return null;
      const name = m.legend.index_name ?? m.legend.index_id;
      return { url, bounds: m.legend.bounds, opacity: this.opacity, label: `${name} ${m.date}` };
    },
  },
  actions: {
    /** The maps of `aoiId` (null: none open). Keeps the choice when it is still there. */
    async open(aoiId: string | null): Promise<void> {
      if (aoiId !== this.aoiId) {
        this.aoiId = aoiId;
        this.maps = [];
        this.chosenKey = null;
      }
      if (!aoiId) return;
      await read(
        (status, error) => {
          this.status = status;
          this.error = error;
        },
        () => useBridge().call('aois.indexMaps', { aoiId }),
        (maps) => {
          if (this.aoiId !== aoiId) return;
          this.maps = maps;
          if (!this.chosen) this.chosenKey = maps[0] ? keyOf(maps[0]) : null;
        },
      );
    },
    choose(key: string): void {
      this.chosenKey = key;
    },
  },
});

/**
 * What the Indices screen shows and picks from, read from the mirror: indices (presets and
 * custom), the visualizations this client created, the AOIs (to create visualizations on) and,
 * per AOI, its assets (the scene assets are a visualization's sources).
 */
import type { Aoi, Asset, SpectralIndex, Visualization } from '@eo/domain';
import { defineStore } from 'pinia';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { latestOnly } from '../../stores/latest';

const loads = latestOnly();

export const useIndicesStore = defineStore('indices', {
  state: () => ({
    indices: [] as SpectralIndex[],
    visualizations: [] as Visualization[],
    aois: [] as Aoi[],
    /** Assets by AOI id, read when an AOI is chosen. */
    assets: {} as Record<string, Asset[]>,
    assetsError: null as ReadableError | null,
    loading: false,
    loaded: false,
    error: null as ReadableError | null,
  }),
  getters: {
    /** Satellites of the listed indices, for the list's filter. */
    satelliteIds: (s): string[] =>
      [...new Set(s.indices.map((i) => i.satellite_id).filter((x): x is string => !!x))].sort(),
    /** Colormaps in use, as suggestions for a new index. */
    colormaps: (s): string[] =>
      [...new Set(s.indices.map((i) => i.colormap).filter((x): x is string => !!x))].sort(),
    indexById: (s) => new Map(s.indices.map((i) => [i.id, i])),
    aoiById: (s) => new Map(s.aois.map((a) => [a.aoi_id, a])),
  },
  actions: {
    async load(): Promise<void> {
      const current = loads.begin();
      this.loading = true;
      try {
        const bridge = useBridge();
        const [indices, visualizations, aois] = await Promise.all([
          bridge.call('indices.list'),
          bridge.call('visualizations.list'),
          bridge.call('aois.list'),
        ]);
        if (!current()) return;
        this.indices = indices;
        this.visualizations = visualizations;
        this.aois = aois;
        this.error = null;
        this.loaded = true;
      } catch (err) {
        if (current()) this.error = readableError(err);
      } finally {
        if (current()) this.loading = false;
      }
    },
    /** Scene assets are the sources a visualization may use (the service refuses others). */
    async loadAssets(aoiId: string): Promise<void> {
      this.assetsError = null;
      try {
        this.assets = { ...this.assets, [aoiId]: await useBridge().call('aois.assets', { aoiId }) };
      } catch (err) {
        this.assetsError = readableError(err);
      }
    },
  },
});

/**
 * Choices for the create forms (projects, bandsets, satellites with their bands, workflows):
 * the service's reference lists, read at each sync, and the ids the mirror and the outbox have
 * seen, gathered by the backend. Where the spec allows other values the forms accept them, and
 * the service has the last word.
 */
import { defineStore } from 'pinia';
import type { Lookups } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { latestOnly } from './latest';

const loads = latestOnly();

export type LookupSatellite = Lookups['satellites'][number];

export const EMPTY_LOOKUPS: Lookups = {
  projectIds: [],
  bandsetIds: [],
  workflowIds: [],
  projects: [],
  bandsets: [],
  workflows: [],
  satellites: [],
  cloudConfigs: [],
  stores: [],
  serviceIds: { projects: [], bandsets: [], satellites: [], workflows: [] },
};

export const useLookupsStore = defineStore('lookups', {
  state: () => ({ lookups: EMPTY_LOOKUPS as Lookups, loaded: false }),
  getters: {
    /** Known bands of a satellite; null when the satellite is unknown here. */
    bandsOf: (s) => (satelliteId: string) =>
      s.lookups.satellites.find((x) => x.id === satelliteId)?.bands ?? null,
    /** A known satellite: its bands, and whether they are the service's list or a guess. */
    satelliteOf:
      (s) =>
      (satelliteId: string): LookupSatellite | null =>
        s.lookups.satellites.find((x) => x.id === satelliteId) ?? null,
  },
  actions: {
    /**
     * App-wide: a sync brings the service's lists (the first sync of a fresh install included),
     * so the forms' choices are read again when one ends. Returns the unsubscribe.
     */
    listen(): () => void {
      return useBridge().on('sync.finished', () => void this.load());
    },
    async load(): Promise<void> {
      const current = loads.begin();
      try {
        const lookups = await useBridge().call('lookups.get');
        if (!current()) return;
        this.lookups = lookups;
        this.loaded = true;
      } catch {
        // Choices are optional: the forms work without them.
      }
    },
  },
});

/**
 * Suggestions for the create forms (projects, bandsets, satellites with their bands, workflows)
 * gathered by the backend from the mirror and the outbox. Suggestions only: forms accept other
 * values, and the service has the last word.
 */
import { defineStore } from 'pinia';
import type { Lookups } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { latestOnly } from './latest';

const loads = latestOnly();

export const useLookupsStore = defineStore('lookups', {
  state: () => ({
    lookups: { projectIds: [], bandsetIds: [], satellites: [], workflowIds: [] } as Lookups,
    loaded: false,
  }),
  getters: {
    /** Known bands of a satellite; null when the satellite is unknown here. */
    bandsOf: (s) => (satelliteId: string) =>
      s.lookups.satellites.find((x) => x.id === satelliteId)?.bands ?? null,
  },
  actions: {
    async load(): Promise<void> {
      const current = loads.begin();
      try {
        const lookups = await useBridge().call('lookups.get');
        if (!current()) return;
        this.lookups = lookups;
        this.loaded = true;
      } catch {
        // Suggestions are optional: the forms work without them.
      }
    },
  },
});

/**
 * Hand-offs between screens: the catalog's multi-select becomes an order (an archive item of the
 * selected records) or a delivery; a file dropped on the catalog map becomes AOIs or an order. The catalog asks here; App.vue opens the target screen, and
 * that screen takes the hand-off (and clears it) when it shows.
 */
import { defineStore } from 'pinia';

export type Handoff =
  'order-from-catalog' | 'deliver-catalog' | 'aois-from-file' | 'order-from-file';

/** The screen that takes each hand-off. */
export const SCREEN_FOR_HANDOFF: Record<Handoff, string> = {
  'order-from-catalog': 'orders',
  'deliver-catalog': 'deliveries',
  // A field file dropped on the catalog map (capabilities/file-import/map-file-import.ts).
  'aois-from-file': 'aois',
  'order-from-file': 'orders',
};

export const useHandoffStore = defineStore('handoff', {
  state: () => ({ pending: null as Handoff | null }),
  actions: {
    request(handoff: Handoff): void {
      this.pending = handoff;
    },
    /** True once for a pending hand-off of this kind (and clears it). */
    take(handoff: Handoff): boolean {
      if (this.pending !== handoff) return false;
      this.pending = null;
      return true;
    },
  },
});

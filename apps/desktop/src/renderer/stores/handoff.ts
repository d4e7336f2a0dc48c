/**
 * Hand-offs between screens: the catalog's multi-select becomes an order (an archive item of the
 * selected records) or a delivery. The catalog asks here; App.vue opens the target screen, and
 * that screen takes the hand-off (and clears it) when it shows.
 */
import { defineStore } from 'pinia';

export type Handoff = 'order-from-catalog' | 'deliver-catalog';

/** The screen that takes each hand-off. */
export const SCREEN_FOR_HANDOFF: Record<Handoff, string> = {
  'order-from-catalog': 'orders',
  'deliver-catalog': 'deliveries',
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

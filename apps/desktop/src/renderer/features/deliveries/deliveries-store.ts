/**
 * Deliveries this client requested (read from the mirror) and the order items a new delivery
 * can take as its source.
 */
import type { Delivery, OrderItem } from '@eo/domain';
import { defineStore } from 'pinia';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';
import { latestOnly } from '../../stores/latest';

const loads = latestOnly();

export const useDeliveriesStore = defineStore('deliveries', {
  state: () => ({
    deliveries: [] as Delivery[],
    orderItems: [] as OrderItem[],
    loading: false,
    loaded: false,
    error: null as ReadableError | null,
  }),
  actions: {
    async load(): Promise<void> {
      const current = loads.begin();
      this.loading = true;
      try {
        const bridge = useBridge();
        const [deliveries, orderItems] = await Promise.all([
          bridge.call('deliveries.list'),
          bridge.call('orderItems.list'),
        ]);
        if (!current()) return;
        this.deliveries = deliveries;
        this.orderItems = orderItems;
        this.error = null;
        this.loaded = true;
      } catch (err) {
        if (current()) this.error = readableError(err);
      } finally {
        if (current()) this.loading = false;
      }
    },
  },
});

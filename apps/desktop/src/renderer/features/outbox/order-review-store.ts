/**
 * Queued orders wait for the user's confirmation of their price (issue 17): when the service is
 * reachable and orders wait, every one is quoted (`outbox.reviewOrders`) and shown beside its
 * price when queued; "Send N orders (total X)" sends exactly the orders chosen, as reviewed
 * (`outbox.sendOrders`). The backend holds every other order, "Submit all" included, unless
 * Settings sends orders automatically (then nothing waits here).
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { FlushResult, OrderReview, ReviewedOrder } from '../../../shared/contract';
// The contract's own files, not its index: that brings every method's schemas (initial JS).
import { toContractError } from '../../../shared/contract/errors';
import { useBridge } from '../../stores/bridge-provider';
import { useConnectivityStore } from '../../stores/connectivity';
import { readableError, type ReadableError } from '../../stores/errors';
import { useSettingsStore } from '../../stores/settings-store';
import { useOutboxStore } from '../../stores/outbox-store';

/** The same orders in the same versions (id and last change). */
const versions = (list: ReadonlyArray<{ id: string; updatedAt: string }>) =>
  list.map((o) => `${o.id}@${o.updatedAt}`).join(',');

export const useOrderReviewStore = defineStore('orderReview', () => {
  const outbox = useOutboxStore();
  const settings = useSettingsStore();
  const connectivity = useConnectivityStore();

  const review = shallowRef<OrderReview | null>(null);
  const loading = ref(false);
  const error = ref<ReadableError | null>(null);
  /** Orders left out by the user (the others with a price are sent). */
  const leftOut = ref<ReadonlySet<string>>(new Set());
  const sending = ref(false);
  const sendError = ref<ReadableError | null>(null);

  /** Queued orders that wait for a confirmation (none when Settings sends them automatically). */
  const waiting = computed(() =>
    settings.settings?.autoSendOrders === true
      ? []
      : outbox.entries.filter((e) => e.kind === 'order' && e.state === 'queued'),
  );
  /** The review no longer shows what waits: an order queued, changed, sent or cancelled since. */
  const stale = computed(
    () => review.value !== null && versions(review.value.orders) !== versions(waiting.value),
  );
  const chosen = computed((): ReviewedOrder[] =>
    stale.value || !review.value
      ? []
      : review.value.orders.filter((o) => o.quote !== null && !leftOut.value.has(o.id)),
  );
  const total = computed(
    () =>
      Math.round(chosen.value.reduce((sum, o) => sum + (o.quote?.total_amount ?? 0), 0) * 100) /
      100,
  );

  async function load(): Promise<void> {
    if (loading.value) return;
    loading.value = true;
    error.value = null;
    try {
      review.value = await useBridge().call('outbox.reviewOrders');
      leftOut.value = new Set();
    } catch (err) {
      error.value = readableError(err);
    } finally {
      loading.value = false;
    }
  }

  function toggle(id: string, send: boolean): void {
    const next = new Set(leftOut.value);
    if (send) next.delete(id);
    else next.add(id);
    leftOut.value = next;
  }

  /** "Send N orders": exactly the chosen orders, as reviewed. */
  async function send(): Promise<FlushResult | null> {
    const orders = chosen.value.map((o) => ({
      id: o.id,
      updatedAt: o.updatedAt,
      total: o.quote?.total_amount ?? 0,
    }));
    if (orders.length === 0 || sending.value) return null;
    sending.value = true;
    sendError.value = null;
    try {
      return await useBridge().call('outbox.sendOrders', { orders });
    } catch (err) {
      sendError.value = readableError(err);
      // Nothing was sent: a price or an order changed since. Show them as they are now.
      if (toContractError(err).code === 'conflict') void load();
      return null;
    } finally {
      sending.value = false;
      await outbox.refresh();
    }
  }

  /**
   * Quotes on its own when it matters: the service is reachable, orders wait, and no review
   * shows them as they are (on reconnect, and when an order is queued or changed while online).
   */
  function listen(): () => void {
    return watch(
      [() => connectivity.online, () => waiting.value.length, stale, sending],
      ([online, count, isStale, busy]) => {
        if (!online || count === 0 || busy || loading.value) return;
        if (review.value === null || isStale) void load();
      },
      { immediate: true },
    );
  }

  return {
    review,
    loading,
    error,
    leftOut,
    sending,
    sendError,
    waiting,
    stale,
    chosen,
    total,
    load,
    toggle,
    send,
    listen,
  };
});

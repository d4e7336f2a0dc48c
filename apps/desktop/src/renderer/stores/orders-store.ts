/**
 * The Orders screen: orders from the mirror (filtered by payment status), the item filters
 * (type, status, project, created days, area, name text) that narrow both the list of orders
 * and the items shown for the open order, hover/selection shared by the item list and the map,
 * and reloads when records change or a sync ends. Queued orders come from the outbox store.
 */
import type { Order, OrderItem, OrderItemStatus, OrderItemType, OrderStatus } from '@eo/domain';
import { defineStore } from 'pinia';
import { OrderItemsQuery, OrdersQuery } from '../../shared/contract';
import { localDayToIso } from '../format/units';
import { useBridge } from './bridge-provider';
import type { ReadableError } from './errors';
import { latestRead, reloadOnChange, type ReadStatus } from './list-reads';

export interface OrderFilters {
  /** The order's payment status (OrdersQuery.status). */
  paymentStatus: OrderStatus[];
  types: OrderItemType[];
  statuses: OrderItemStatus[];
  projectId: string;
  /** Local calendar days from `<input type="date">`. */
  createdFrom: string;
  createdTo: string;
  /** km², as typed. */
  areaMin: string;
  areaMax: string;
  text: string;
}

export type OrderFilterField = 'createdFrom' | 'createdTo' | 'areaMin' | 'areaMax' | 'projectId';

export function emptyOrderFilters(): OrderFilters {
  return {
    paymentStatus: [],
    types: [],
    statuses: [],
    projectId: '',
    createdFrom: '',
    createdTo: '',
    areaMin: '',
    areaMax: '',
    text: '',
  };
}

export type BuiltOrderQueries =
  | { ok: true; orders: OrdersQuery; items: OrderItemsQuery | undefined }
  | { ok: false; errors: Partial<Record<OrderFilterField, string>> };

function areaValue(raw: string): number | undefined | 'bad' {
  if (!raw.trim()) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 'bad';
}

/**
 * The filters as the contract's queries. `items` is undefined when no item filter is set (every
 * order then shows all its items); the contract's own schemas have the last word.
 */
export function buildOrderQueries(f: OrderFilters): BuiltOrderQueries {
  const errors: Partial<Record<OrderFilterField, string>> = {};
  const from = f.createdFrom ? localDayToIso(f.createdFrom, 'start') : undefined;
  const to = f.createdTo ? localDayToIso(f.createdTo, 'end') : undefined;
  if (from === null) errors.createdFrom = 'Not a valid date.';
  if (to === null) errors.createdTo = 'Not a valid date.';
  if (from && to && from > to) errors.createdTo = 'The end date is before the start date.';
  const min = areaValue(f.areaMin);
  const max = areaValue(f.areaMax);
  if (min === 'bad') errors.areaMin = 'Enter an area in km² (0 or more).';
  if (max === 'bad') errors.areaMax = 'Enter an area in km² (0 or more).';
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    errors.areaMax = 'The largest area is smaller than the smallest.';
  }
  if (Object.keys(errors).length) return { ok: false, errors };

  const orders: NonNullable<OrdersQuery> = {};
  if (f.paymentStatus.length) orders.status = [...f.paymentStatus];
  const items: NonNullable<OrderItemsQuery> = {};
  if (f.types.length) items.type = [...f.types];
  if (f.statuses.length) items.status = [...f.statuses];
  if (f.projectId.trim()) items.projectId = f.projectId.trim();
  if (from || to) items.created = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
  if (min !== undefined || max !== undefined) {
    items.areaKm2 = {
      ...(typeof min === 'number' ? { min } : {}),
      ...(typeof max === 'number' ? { max } : {}),
    };
  }
  if (f.text.trim()) items.text = f.text.trim();
  const checkedItems = OrderItemsQuery.safeParse(items);
  if (!checkedItems.success) {
    const issue = checkedItems.error.issues[0];
    const field: OrderFilterField = issue?.path[0] === 'projectId' ? 'projectId' : 'createdTo';
    return { ok: false, errors: { [field]: issue?.message ?? 'Not a valid filter.' } };
  }
  return {
    ok: true,
    orders: OrdersQuery.parse(orders),
    items: Object.keys(items).length ? checkedItems.data : undefined,
  };
}

type Status = ReadStatus;
const readList = latestRead();
const readItems = latestRead();

export const useOrdersStore = defineStore('orders', {
  state: () => ({
    filters: emptyOrderFilters(),
    filterErrors: {} as Partial<Record<OrderFilterField, string>>,
    orders: [] as Order[],
    /** Orders with at least one item matching the item filters; null when none is set. */
    matchingOrderIds: null as string[] | null,
    /** The item filters of the list shown, reused for the open order's items. */
    itemsQuery: undefined as OrderItemsQuery | undefined,
    status: 'idle' as Status,
    error: null as ReadableError | null,
    /** An order id, or `queued:<outbox entry id>` for an order not sent yet. */
    selectedId: null as string | null,
    items: [] as OrderItem[],
    itemsStatus: 'idle' as Status,
    itemsError: null as ReadableError | null,
    hoveredItemId: null as string | null,
    selectedItemId: null as string | null,
  }),
  getters: {
    visibleOrders(s): Order[] {
      if (!s.matchingOrderIds) return s.orders;
      const keep = new Set(s.matchingOrderIds);
      return s.orders.filter((o) => keep.has(o.id));
    },
    selectedOrder(s): Order | null {
      return s.orders.find((o) => o.id === s.selectedId) ?? null;
    },
    /** The outbox entry id when a queued order is open. */
    selectedQueuedId: (s): string | null =>
      s.selectedId?.startsWith('queued:') ? s.selectedId.slice('queued:'.length) : null,
    itemFiltersActive: (s): boolean => s.itemsQuery !== undefined,
  },
  actions: {
    /** Reload on mirrored order changes and after each sync; returns the unsubscribe. */
    listen(): () => void {
      return reloadOnChange('orders', () => this.load());
    },

    async load(): Promise<void> {
      const built = buildOrderQueries(this.filters);
      if (!built.ok) {
        this.filterErrors = built.errors;
        return;
      }
      this.filterErrors = {};
      const bridge = useBridge();
      const applied = await readList(
        (status, error) => {
          this.status = status;
          this.error = error;
        },
        () =>
          Promise.all([
            bridge.call('orders.list', built.orders),
            built.items ? bridge.call('orderItems.list', built.items) : Promise.resolve(null),
          ]),
        ([orders, matching]) => {
          this.orders = orders;
          this.itemsQuery = built.items;
          this.matchingOrderIds = matching ? [...new Set(matching.map((i) => i.order_id))] : null;
        },
      );
      if (!applied) return;
      const open = this.selectedId;
      if (open && !open.startsWith('queued:')) {
        if (this.visibleOrders.some((o) => o.id === open)) await this.loadItems();
        else this.select(null);
      }
    },

    resetFilters(): void {
      this.filters = emptyOrderFilters();
      void this.load();
    },

    /** Open an order (or a queued one, `queued:<id>`); null closes. */
    select(id: string | null): void {
      this.selectedId = id;
      this.items = [];
      this.itemsError = null;
      this.hoveredItemId = null;
      this.selectedItemId = null;
      this.itemsStatus = 'idle';
      if (id && !id.startsWith('queued:')) void this.loadItems();
    },

    async loadItems(): Promise<void> {
      const id = this.selectedId;
      if (!id || id.startsWith('queued:')) return;
      await readItems(
        (status, error) => {
          this.itemsStatus = status;
          this.itemsError = error;
        },
        () => useBridge().call('orderItems.list', { ...(this.itemsQuery ?? {}), orderIds: [id] }),
        (items) => {
          this.items = items;
          if (this.selectedItemId && !items.some((i) => i.id === this.selectedItemId)) {
            this.selectedItemId = null;
          }
        },
      );
    },

    hoverItem(id: string | null): void {
      this.hoveredItemId = id;
    },

    pickItem(id: string | null): void {
      this.selectedItemId = this.selectedItemId === id ? null : id;
    },
  },
});

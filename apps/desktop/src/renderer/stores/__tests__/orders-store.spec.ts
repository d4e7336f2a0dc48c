import { buildOrder, buildOrderItem, createRng } from '@eo/domain/testing';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { localDayToIso } from '../../format/units';
import { provideBridge } from '../bridge-provider';
import { buildOrderQueries, emptyOrderFilters, useOrdersStore } from '../orders-store';

let bridge: MemoryBridge;

function seed(): void {
  const rng = createRng(3);
  const a = buildOrder({ id: 'order-a', status: 'PAID' }, { rng });
  const b = buildOrder({ id: 'order-b', status: 'UNPAID' }, { rng });
  bridge.work.orders = [a, b];
  bridge.work.orderItems = [
    buildOrderItem({ id: 'item-a1', order_id: 'order-a', type: 'ARCHIVE' }, { rng }),
    buildOrderItem({ id: 'item-a2', order_id: 'order-a', type: 'TASKING' }, { rng }),
    buildOrderItem({ id: 'item-b1', order_id: 'order-b', type: 'RECURRING' }, { rng }),
  ];
}

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 5 });
  provideBridge(bridge);
  seed();
});

const lastInput = (method: string) => bridge.calls.filter((c) => c.method === method).at(-1)?.input;

describe('order filters -> the contract queries', () => {
  it('leaves the item query out when no item filter is set', () => {
    expect(buildOrderQueries(emptyOrderFilters())).toEqual({
      ok: true,
      orders: {},
      items: undefined,
    });
  });

  it('maps every filter to its query field', () => {
    const built = buildOrderQueries({
      paymentStatus: ['PAID', 'REFUND'],
      types: ['ARCHIVE'],
      statuses: ['ACTIVE', 'COMPLETED'],
      projectId: ' proj-1 ',
      createdFrom: '2024-05-01',
      createdTo: '2024-05-31',
      areaMin: '10',
      areaMax: '250.5',
      text: ' field ',
    });
    expect(built).toEqual({
      ok: true,
      orders: { status: ['PAID', 'REFUND'] },
      items: {
        type: ['ARCHIVE'],
        status: ['ACTIVE', 'COMPLETED'],
        projectId: 'proj-1',
        created: {
          from: localDayToIso('2024-05-01', 'start'),
          to: localDayToIso('2024-05-31', 'end'),
        },
        areaKm2: { min: 10, max: 250.5 },
        text: 'field',
      },
    });
  });

  it('refuses impossible ranges with a message per field', () => {
    const built = buildOrderQueries({
      ...emptyOrderFilters(),
      createdFrom: '2024-06-01',
      createdTo: '2024-05-01',
      areaMin: '-1',
      areaMax: 'lots',
    });
    expect(built).toEqual({
      ok: false,
      errors: {
        createdTo: 'The end date is before the start date.',
        areaMin: 'Enter an area in km² (0 or more).',
        areaMax: 'Enter an area in km² (0 or more).',
      },
    });
  });
});

describe('useOrdersStore', () => {
  it('loads orders with the payment filter and narrows them to orders with matching items', async () => {
    const orders = useOrdersStore();
    await orders.load();
    expect(orders.visibleOrders.map((o) => o.id)).toEqual(['order-a', 'order-b']);
    expect(bridge.calls.some((c) => c.method === 'orderItems.list')).toBe(false);

    orders.filters.paymentStatus = ['PAID'];
    orders.filters.types = ['RECURRING'];
    // The memory bridge does not filter: make it answer like the backend would.
    bridge.work.orderItems = bridge.work.orderItems.filter((i) => i.type === 'RECURRING');
    await orders.load();
    expect(lastInput('orders.list')).toEqual({ status: ['PAID'] });
    expect(lastInput('orderItems.list')).toEqual({ type: ['RECURRING'] });
    expect(orders.visibleOrders.map((o) => o.id)).toEqual(['order-b']);
  });

  it('sends nothing while a filter is wrong', async () => {
    const orders = useOrdersStore();
    orders.filters.areaMin = '-3';
    await orders.load();
    expect(bridge.calls.some((c) => c.method === 'orders.list')).toBe(false);
    expect(orders.filterErrors.areaMin).toMatch(/km²/);
  });

  it("opens an order's items with the item filters and the order id", async () => {
    const orders = useOrdersStore();
    orders.filters.text = 'Archive';
    await orders.load();
    orders.select('order-a');
    await new Promise((r) => setTimeout(r, 0));
    expect(lastInput('orderItems.list')).toEqual({ text: 'Archive', orderIds: ['order-a'] });
    expect(orders.items.map((i) => i.id)).toEqual(['item-a1', 'item-a2']);
    orders.pickItem('item-a2');
    expect(orders.selectedItemId).toBe('item-a2');
    orders.pickItem('item-a2');
    expect(orders.selectedItemId).toBeNull();
  });

  it('reloads on records.changed for orders and after a sync, not for other kinds', async () => {
    const orders = useOrdersStore();
    const stop = orders.listen();
    await orders.load();
    const count = () => bridge.calls.filter((c) => c.method === 'orders.list').length;
    const before = count();
    bridge.emit('records.changed', { kinds: ['aois'] });
    expect(count()).toBe(before);
    bridge.work.orders = [...bridge.work.orders, buildOrder({ id: 'order-c' })];
    bridge.emit('records.changed', { kinds: ['orders', 'jobs'] });
    await new Promise((r) => setTimeout(r, 0));
    expect(orders.orders.map((o) => o.id)).toContain('order-c');
    bridge.emit('sync.finished', { running: false, resources: [] });
    expect(count()).toBe(before + 2);
    stop();
    bridge.emit('records.changed', { kinds: ['orders'] });
    expect(count()).toBe(before + 2);
  });

  it('keeps the error readable and recovers on the next load', async () => {
    const orders = useOrdersStore();
    bridge.failWith('orders.list', new ContractError('internal', 'database is locked'));
    await orders.load();
    expect(orders.status).toBe('error');
    expect(orders.error?.message).toBe('database is locked');
    bridge.failWith('orders.list', null);
    await orders.load();
    expect(orders.status).toBe('ready');
    expect(orders.error).toBeNull();
  });
});

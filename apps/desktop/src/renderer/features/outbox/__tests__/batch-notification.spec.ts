import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlushResult } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { buildOrder, buildOrderItem } from '@eo/domain/testing';
import { aoiCreate, orderCreate, queue } from '../../../__tests__/work-fixtures';
import { useOutboxStore } from '../outbox-store';
import BatchNotification from '../BatchNotification.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  useOutboxStore().listen();
  wrapper = mount(BatchNotification, { attachTo: document.body });
});
afterEach(() => wrapper?.unmount());

const result = (r: Partial<FlushResult>): FlushResult => ({
  sent: 0,
  failed: 0,
  blocked: 0,
  unconfirmed: 0,
  remaining: 0,
  problems: [],
  ...r,
});

const toast = () => wrapper!.find('[data-test="batch-notification"]');

describe('BatchNotification', () => {
  it('lives in a polite status region that exists before anything is announced', () => {
    const region = wrapper!.find('[data-test="batch-notification-region"]');
    expect(region.attributes('role')).toBe('status');
    expect(region.attributes('aria-live')).toBe('polite');
    expect(toast().exists()).toBe(false);
  });

  it('says what was created, and is dismissed from the keyboard', async () => {
    bridge.emit('outbox.finished', result({ sent: 12 }));
    await flushPromises();
    expect(toast().find('[data-test="notification-created"]').text()).toBe('12 created.');
    expect(toast().find('[data-test="notification-attention"]').exists()).toBe(false);
    expect(toast().find('[data-test="open-outbox"]').exists()).toBe(false);
    const dismiss = toast().find('[data-test="dismiss"]');
    expect(dismiss.element.tagName).toBe('BUTTON');
    expect(dismiss.attributes('aria-label')).toBe('Dismiss the outbox notification');
    await dismiss.trigger('click');
    expect(toast().exists()).toBe(false);
    // The same figures again are another batch: shown again.
    bridge.emit('outbox.finished', result({ sent: 12 }));
    await flushPromises();
    expect(toast().exists()).toBe(true);
  });

  it('says what needs attention with the problems, and opens the outbox', async () => {
    bridge.emit(
      'outbox.finished',
      result({
        sent: 3,
        failed: 1,
        blocked: 2,
        remaining: 1,
        problems: [
          { id: 'a', kind: 'aoi', summary: 'AOI · North field', message: 'unknown project prj-x' },
          {
            id: 'b',
            kind: 'visualization',
            summary: 'Visualization · NDVI on North field',
            message: 'blocked',
          },
        ],
      }),
    );
    await flushPromises();
    expect(toast().classes()).toContain('toast--attention');
    expect(toast().find('[data-test="notification-created"]').text()).toBe('3 created.');
    expect(toast().find('[data-test="notification-attention"]').text()).toBe(
      '1 failed, 2 blocked: needs attention.',
    );
    // As laid out: runs of white space are one space (and never none between the parts).
    expect(toast().find('.toast__title').text().replace(/\s+/g, ' ')).toBe(
      'Outbox batch finished: 3 created. 1 failed, 2 blocked: needs attention. 1 still waiting to be sent.',
    );
    expect(
      toast()
        .findAll('[data-test="notification-problems"] li')
        .map((li) => li.text()),
    ).toEqual([
      'AOI · North field: unknown project prj-x',
      'Visualization · NDVI on North field: blocked',
    ]);
    await toast().find('[data-test="open-outbox"]').trigger('click');
    expect(wrapper!.emitted('openOutbox')).toHaveLength(1);
    expect(toast().exists()).toBe(false);
  });

  it('lists at most five problems and says how many more', async () => {
    const problems = Array.from({ length: 8 }, (_, i) => ({
      id: `e${i}`,
      kind: 'job' as const,
      summary: `job ${i}`,
      message: 'unknown workflow',
    }));
    bridge.emit('outbox.finished', result({ failed: 8, problems }));
    await flushPromises();
    const items = toast().findAll('[data-test="notification-problems"] li');
    expect(items).toHaveLength(6);
    expect(items[5]!.text()).toBe('and 3 more');
  });

  it('marks a successful batch that leaves earlier problems as needing attention', async () => {
    bridge.emit(
      'outbox.finished',
      result({
        sent: 2,
        problems: [{ id: 'a', kind: 'job', summary: 'Job · wf-x for p', message: 'unknown' }],
      }),
    );
    await flushPromises();
    expect(toast().classes()).toContain('toast--attention');
    expect(toast().find('[data-test="open-outbox"]').exists()).toBe(true);
    expect(toast().find('[data-test="notification-attention"]').exists()).toBe(false);
  });

  it('shows nothing for an empty batch', async () => {
    bridge.emit('outbox.finished', result({ sent: 2 }));
    await flushPromises();
    expect(toast().exists()).toBe(true);
    bridge.emit('outbox.finished', result({ remaining: 4 }));
    await flushPromises();
    expect(toast().exists()).toBe(false);
  });

  it('reports what a batch created that fails afterwards, once each', async () => {
    const outbox = useOutboxStore();
    await outbox.refresh(); // what was sent before is not this batch's
    const order = await queue(bridge, orderCreate('North field', 'South field'));
    const aoi = await queue(bridge, aoiCreate('River AOI'));
    await outbox.flush();
    await flushPromises();
    expect(toast().find('[data-test="notification-created"]').text()).toBe('2 created.');
    expect(toast().find('[data-test="notification-later"]').exists()).toBe(false);
    const orderId = bridge.work.outbox.find((e) => e.id === order.id)!.remoteId!;
    const aoiId = bridge.work.outbox.find((e) => e.id === aoi.id)!.remoteId!;

    // The service fails one item later (payment), and the AOI; a sync brings it to the mirror.
    bridge.work.orderItems = [
      buildOrderItem({
        id: 'oi-1',
        order_id: orderId,
        name: 'North field',
        status: 'ACTIVE',
        validation_errors: [],
      }),
      buildOrderItem({
        id: 'oi-2',
        order_id: orderId,
        name: 'South field',
        status: 'CANCELLED',
        validation_errors: [
          { code: 'PAYMENT_FAILED', field: 'status', message: 'the payment failed on every retry' },
        ],
      }),
    ];
    bridge.work.aois = [{ aoi_id: aoiId, name: 'River AOI', status: 'failed' } as never];
    bridge.emit('records.changed', { kinds: ['orders', 'aois'] });
    await flushPromises();
    expect(
      toast()
        .findAll('[data-test="notification-later"] li')
        .map((li) => li.text()),
    ).toEqual([
      'Order item “South field”: cancelled: the payment failed on every retry (status)',
      'AOI · River AOI: failed',
    ]);
    expect(toast().classes()).toContain('toast--attention');

    // Dismissed, the same failures are not reported again; a new one is, on its own.
    await toast().find('[data-test="dismiss"]').trigger('click');
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    expect(toast().exists()).toBe(false);
    bridge.work.orderItems[0] = { ...bridge.work.orderItems[0]!, status: 'FAILED' };
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    expect(toast().find('[data-test="notification-later-title"]').text()).toBe(
      'Since the last outbox batch: 1 created record failed.',
    );
    expect(toast().find('[data-test="notification-later"]').text()).toBe(
      'Order item “North field”: failed',
    );
  });

  it('says when an order it sent is paid and its items complete (issue 26)', async () => {
    const outbox = useOutboxStore();
    await outbox.refresh();
    const order = await queue(bridge, orderCreate('North field', 'South field'));
    await outbox.flush();
    await flushPromises();
    const orderId = bridge.work.outbox.find((e) => e.id === order.id)!.remoteId!;
    const item = (id: string, name: string, status: 'DRAFT' | 'ACTIVE' | 'COMPLETED') =>
      buildOrderItem({ id, order_id: orderId, name, status, validation_errors: [] });
    // As sent: unpaid, draft items. Nothing moved yet: nothing to say about it.
    bridge.work.orders = [buildOrder({ id: orderId, status: 'UNPAID' })];
    bridge.work.orderItems = [
      item('oi-1', 'North field', 'DRAFT'),
      item('oi-2', 'South field', 'DRAFT'),
    ];
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    expect(toast().find('[data-test="notification-orders"]').exists()).toBe(false);
    await toast().find('[data-test="dismiss"]').trigger('click');

    // The backend's follow-up read it paid, one item completed: said without a sync.
    bridge.work.orders = [buildOrder({ id: orderId, status: 'PAID' })];
    bridge.work.orderItems = [
      item('oi-1', 'North field', 'COMPLETED'),
      item('oi-2', 'South field', 'ACTIVE'),
    ];
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    expect(toast().find('[data-test="notification-later-title"]').text()).toBe(
      'Since the last outbox batch: 1 order moved on.',
    );
    const line = () => toast().find('[data-test="notification-orders"]').text();
    expect(line()).toMatch(/^Order .*: Paid · 2 items: 1 completed, 1 active$/);
    expect(toast().classes()).not.toContain('toast--attention');

    // Moving on again replaces its line (one per order).
    bridge.work.orderItems = [
      item('oi-1', 'North field', 'COMPLETED'),
      item('oi-2', 'South field', 'COMPLETED'),
    ];
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    expect(toast().findAll('[data-test="notification-orders"] li')).toHaveLength(1);
    expect(line()).toMatch(/: Paid · 2 items completed$/);
  });
});

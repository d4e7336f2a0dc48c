import { buildDelivery, buildOrderItem, buildTask } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntryView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { orderCreate, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useBasketStore } from '../../../stores/basket-store';
import { useConnectivityStore } from '../../../stores/connectivity';
import { useOutboxStore } from '../../../stores/outbox-store';
import DeliveriesScreen from '../DeliveriesScreen.vue';
import { createAppRouter } from '../../../router';
import { createMemoryHistory } from 'vue-router';
import {
  checkDeliveryForm,
  configHint,
  deliveryFormFromInput,
  emptyDeliveryForm,
} from '../delivery-form';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
let queuedOrder: OutboxEntryView;

beforeEach(async () => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  bridge.work.orderItems = [
    buildOrderItem({
      id: 'oi-1',
      name: 'Vineyard east',
      order_id: 'o-1',
      type: 'ARCHIVE',
      status: 'COMPLETED',
      tasks: [buildTask({ id: 'task-1', order_item_id: 'oi-1' })],
    }),
  ];
  bridge.work.deliveries = [
    buildDelivery({
      delivery_id: 'd-1',
      catalog_id: 'c-9',
      task_id: null,
      status: 'SUCCESS',
      target_path: 's3://bucket/field-a/c-9/',
      cloud_delivery: { config: 'aws-s3-eu-west-1', path: 's3://bucket/field-a/' },
      created_at: '2024-05-17T08:00:00Z',
      updated_at: '2024-05-17T08:30:00Z',
    }),
  ];
  queuedOrder = await queue(bridge, orderCreate('Vineyard west', 'Olive grove'));
  setOnline(true);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  vi.useRealTimers();
});

function setOnline(online: boolean): void {
  useConnectivityStore().current = online
    ? { state: 'online', checkedAt: '2024-05-17T08:00:00.000Z', since: '2024-05-17T08:00:00.000Z' }
    : {
        state: 'offline',
        checkedAt: '2024-05-17T08:00:00.000Z',
        since: '2024-05-17T08:00:00.000Z',
      };
}

async function mountScreen(): Promise<VueWrapper> {
  wrapper = mount(DeliveriesScreen, {
    attachTo: document.body,
    global: { plugins: [createAppRouter(createMemoryHistory())] },
  });
  await flushPromises();
  return wrapper;
}

const lastEnqueue = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue').at(-1);
const count = (method: string) => bridge.calls.filter((c) => c.method === method).length;

describe('deliveries list', () => {
  it('shows each delivery with what it delivers, its status in words and local times', async () => {
    bridge.work.deliveries.push(
      buildDelivery({
        delivery_id: 'd-2',
        catalog_id: null,
        task_id: 'task-1',
        status: 'IN_PROGRESS',
        target_path: null,
      }),
    );
    await queue(bridge, {
      kind: 'delivery',
      input: {
        deliveries: [{ catalog_ids: ['c-1', 'c-2'], cloud_info: { config: 'gcs', path: 'x/' } }],
      },
    });
    const w = await mountScreen();
    const rows = w.findAll('[data-test="delivery-row"]');
    expect(rows[0]!.find('th').text()).toBe('d-1');
    expect(rows[0]!.text()).toContain('Catalog record c-9');
    expect(rows[0]!.find('[data-state="SUCCESS"]').text()).toBe('Delivered');
    expect(rows[0]!.text()).toContain('s3://bucket/field-a/c-9/');
    expect(rows[0]!.text()).not.toContain('2024-05-17T08');
    expect(rows[1]!.text()).toContain('Order item Vineyard east');
    expect(rows[1]!.find('[data-state="IN_PROGRESS"]').text()).toBe('In progress');
    const queuedRow = w.find('[data-test="queued-delivery"]');
    expect(queuedRow.text()).toContain('2 catalog records');
    expect(queuedRow.find('[data-state="queued"]').text()).toBe('Queued');
  });

  it('keeps target paths on one line, cut with an ellipsis, the whole path in the title', async () => {
    await queue(bridge, {
      kind: 'delivery',
      input: { deliveries: [{ catalog_ids: ['c-1'], cloud_info: { config: 'gcs', path: 'q/' } }] },
    });
    const w = await mountScreen();
    // At 1024 px the bare path wrapped one character a line (p-mono breaks anywhere).
    const delivered = w.find('[data-test="delivery-row"] [data-test="target-path"]');
    expect(delivered.classes()).toContain('p-id');
    expect(delivered.element.parentElement!.title).toBe('s3://bucket/field-a/c-9/');
    const queued = w.find('[data-test="queued-delivery"] [data-test="target-path"]');
    expect(queued.classes()).toContain('p-id');
    expect(queued.element.parentElement!.title).toBe('q/');
  });

  it('has an empty state', async () => {
    bridge.work.deliveries = [];
    const w = await mountScreen();
    expect(w.find('[data-test="deliveries-empty"]').exists()).toBe(true);
  });
});

describe('delivery form', () => {
  it('speaks the form’s words: quiet until used, required marked, summary on submit', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual(['delivery-config', 'delivery-path']);
    expect(form.find('#delivery-source legend').text()).toMatch(/\*$/);
    const lines = await expectSummaryOnSubmit(form, () => form.trigger('submit'));
    expect(lines).toEqual([
      'What to deliver: Choose records or order items to deliver',
      'Cloud location configuration: Enter the cloud location',
      'Path in that location: Enter a path in that location',
    ]);
  });

  it("offers the service's stores first, by name, and refuses a path URL of another store type", async () => {
    bridge.work.lookups = {
      ...bridge.work.lookups,
      cloudConfigs: ['st-s3', 'old-bucket'],
      stores: [{ id: 'st-s3', name: 'field-s3', type: 'S3', bucket: 'b1' }],
    };
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    const options = form.findAll('#delivery-configs option');
    const offered = options.map((o) => [o.attributes('value'), o.attributes('label') ?? null]);
    expect(offered[0]).toEqual(['st-s3', 'field-s3 (S3)']);
    expect(offered.filter(([v]) => v === 'st-s3')).toHaveLength(1);
    expect(offered).toContainEqual(['old-bucket', null]);
    await form.find('input[name="config"]').setValue('st-s3');
    await form.find('input[name="path"]').setValue('az://partner/in/');
    expect(form.find('#delivery-path-error').text()).toMatch(/must start with s3:\/\//);
  });

  it('says what a cloud location configuration is, with a store of the service as example', async () => {
    bridge.work.lookups = {
      ...bridge.work.lookups,
      stores: [{ id: 'st-s3', name: 'field-s3', type: 'S3', bucket: 'b1' }],
    };
    const w = await mountScreen();
    const input = w.find('input[name="config"]');
    const hint = w.find('#delivery-config-hint');
    // Read with the field (aria-describedby), and it names a real store to pick.
    expect(input.attributes('aria-describedby')).toContain('delivery-config-hint');
    expect(hint.text()).toMatch(/^The store the files go to: a bucket the service was set up/);
    expect(hint.text()).toContain('e.g. st-s3: field-s3 (S3)');
    expect(hint.text()).toContain('The path below is the folder inside it.');
    // A service that lists no stores: an example all the same.
    expect(configHint([])).toContain('e.g. store-s3-field for an S3 bucket');
  });

  it('delivers the catalog records in the basket, and the basket lets them go', async () => {
    const basket = useBasketStore();
    basket.listen();
    await basket.add(['c-1', 'c-2']);
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    expect(form.findAll('[data-test="catalog-ids"] li').map((l) => l.text())).toEqual([
      'c-1',
      'c-2',
    ]);
    await form.find('input[name="config"]').setValue('aws-s3-eu-west-1');
    await form.find('input[name="path"]').setValue('deliveries/field-a/');
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'delivery',
      input: {
        deliveries: [
          {
            catalog_ids: ['c-1', 'c-2'],
            cloud_info: { config: 'aws-s3-eu-west-1', path: 'deliveries/field-a/' },
          },
        ],
      },
    });
    expect(form.find('[data-test="form-done"]').text()).toBe(
      'Queued: delivery of 2 catalog records to deliveries/field-a/.',
    );
    expect(w.find('[data-test="queued-delivery"]').exists()).toBe(true);
    expect(basket.ids).toEqual([]);
    expect(basket.notice).toBe('2 records left the basket: the queued delivery takes them.');
  });

  it('needs exactly one non-empty source', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    expect(form.find('[data-test="catalog-source"]').text()).toContain('The basket is empty.');
    await form.find('input[name="config"]').setValue('gcs');
    await form.find('input[name="path"]').setValue('x/');
    await form.trigger('submit');
    await flushPromises();
    expect(form.find('[data-test="source-error"]').text()).toBe(
      'Choose records or order items to deliver',
    );
    expect(bridge.work.outbox.filter((e) => e.kind === 'delivery')).toEqual([]);
    // Choosing order items and one item fixes it.
    await form.find('input[name="source"][value="orderItems"]').setValue(true);
    expect(form.find('[data-test="source-error"]').text()).toBe(
      'Choose records or order items to deliver',
    );
    await form.find('input[name="order-item"][value="oi-1"]').setValue(true);
    expect(form.find('[data-test="source-error"]').text()).toBe('');
  });

  it('delivers order items, also of a queued order by local id, labelled with their names', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    await form.find('input[name="source"][value="orderItems"]').setValue(true);
    const queuedItems = form.findAll('[data-test="queued-order-item"]');
    expect(queuedItems.map((q) => q.find('span').text())).toEqual([
      'Vineyard west (queued order)',
      'Olive grove (queued order)',
    ]);
    await form.find(`input[value="local:${queuedOrder.id}#1"]`).setValue(true);
    await form.find('input[name="order-item"][value="oi-1"]').setValue(true);
    expect(form.find('[data-test="chosen-items"]').text()).toBe(
      'Chosen: Olive grove (queued order), Vineyard east',
    );
    await form.find('input[name="config"]').setValue('aws-s3-eu-west-1');
    await form.find('input[name="path"]').setValue('orders/');
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'delivery',
      input: {
        deliveries: [
          {
            order_item_ids: [`local:${queuedOrder.id}#1`, 'oi-1'],
            cloud_info: { config: 'aws-s3-eu-west-1', path: 'orders/' },
          },
        ],
      },
    });
    expect(useOutboxStore().unsent('delivery')[0]!.dependsOn).toEqual([queuedOrder.id]);
  });

  it('checks the cloud location as it is typed', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    await form.find('input[name="config"]').setValue('x');
    await form.find('input[name="config"]').setValue('');
    expect(form.find('#delivery-config-error').text()).toBe('Enter the cloud location');
    expect(form.find('input[name="config"]').attributes('aria-invalid')).toBe('true');
    expect(form.find('#delivery-path-error').text()).toBe(''); // not touched yet
    await form.find('input[name="path"]').setValue('../elsewhere');
    expect(form.find('#delivery-path-warning').text()).toContain('“..”');
  });

  it('edits a queued delivery, keeping the requests the form does not show', async () => {
    const second = {
      order_item_ids: ['oi-1'],
      cloud_info: { config: 'gcs', path: 'b/' },
    };
    const entry = await queue(bridge, {
      kind: 'delivery',
      input: {
        deliveries: [{ catalog_ids: ['c-1'], cloud_info: { config: 'gcs', path: 'a/' } }, second],
      },
    });
    const outbox = useOutboxStore();
    await outbox.refresh();
    outbox.startEdit(outbox.byId.get(entry.id)!);
    await useBasketStore().add(['c-7', 'c-8']);
    const w = await mountScreen();
    const form = w.find('[data-test="delivery-form"]');
    expect(form.find('[data-test="editing-banner"]').text()).toContain('2 delivery requests');
    // The entry's own records, not what the basket holds now...
    expect(form.findAll('[data-test="catalog-ids"] li').map((l) => l.text())).toEqual(['c-1']);
    // ...unless asked.
    await form
      .findAll('button')
      .find((b) => b.text().startsWith('Use the basket'))!
      .trigger('click');
    await form.find('input[name="path"]').setValue('a2/');
    await form.trigger('submit');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'outbox.edit')?.input).toEqual({
      id: entry.id,
      input: {
        deliveries: [
          { catalog_ids: ['c-7', 'c-8'], cloud_info: { config: 'gcs', path: 'a2/' } },
          second,
        ],
      },
    });
  });
});

describe('delivery status refresh', () => {
  it('refreshes on request online, and says why not offline', async () => {
    bridge.work.deliveries[0] = { ...bridge.work.deliveries[0]!, status: 'PENDING' };
    bridge.work.refreshed = 1;
    const w = await mountScreen();
    const before = count('deliveries.list');
    bridge.work.deliveries[0] = { ...bridge.work.deliveries[0]!, status: 'SUCCESS' };
    await w.find('[data-test="refresh-status"]').trigger('click');
    await flushPromises();
    expect(count('created.refresh')).toBe(1);
    expect(count('deliveries.list')).toBe(before + 1);
    expect(w.find('[data-test="delivery-row"]').attributes('data-status')).toBe('SUCCESS');
    expect(w.text()).toContain('1 updated.');

    setOnline(false);
    await flushPromises();
    const button = w.find('[data-test="refresh-status"]');
    expect(button.attributes('disabled')).toBeDefined();
    expect(button.attributes('aria-describedby')).toBe('refresh-reason');
    expect(w.find('#refresh-reason').text()).toBe(
      'The service is not reachable: statuses come from the service, so the last known ones are shown.',
    );
  });

  it('re-reads every 10 s while open, online and some delivery is unfinished', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    bridge.work.deliveries[0] = { ...bridge.work.deliveries[0]!, status: 'IN_PROGRESS' };
    const w = await mountScreen();
    vi.advanceTimersByTime(9_999);
    await flushPromises();
    expect(count('created.refresh')).toBe(0);
    vi.advanceTimersByTime(1);
    await flushPromises();
    expect(count('created.refresh')).toBe(1);

    setOnline(false);
    vi.advanceTimersByTime(10_000);
    await flushPromises();
    expect(count('created.refresh')).toBe(1);

    setOnline(true);
    bridge.work.deliveries[0] = { ...bridge.work.deliveries[0]!, status: 'FAILED' };
    vi.advanceTimersByTime(10_000);
    await flushPromises();
    expect(count('created.refresh')).toBe(2); // read FAILED: nothing left unfinished
    vi.advanceTimersByTime(30_000);
    await flushPromises();
    expect(count('created.refresh')).toBe(2);

    bridge.work.deliveries[0] = { ...bridge.work.deliveries[0]!, status: 'PENDING' };
    w.unmount();
    wrapper = null;
    vi.advanceTimersByTime(30_000);
    await flushPromises();
    expect(count('created.refresh')).toBe(2); // closed screens do not poll
  });

  it('reloads when the backend reports changed deliveries or orders', async () => {
    await mountScreen();
    const before = count('deliveries.list');
    bridge.emit('records.changed', { kinds: ['jobs'] });
    await flushPromises();
    expect(count('deliveries.list')).toBe(before);
    bridge.emit('records.changed', { kinds: ['deliveries'] });
    await flushPromises();
    expect(count('deliveries.list')).toBe(before + 1);
    // A sent order brings order items to deliver.
    bridge.work.orderItems.push(buildOrderItem({ id: 'oi-2', name: 'Pasture', order_id: 'o-2' }));
    bridge.emit('records.changed', { kinds: ['orders'] });
    await flushPromises();
    await wrapper!.find('input[name="source"][value="orderItems"]').setValue(true);
    expect(wrapper!.find('input[name="order-item"][value="oi-2"]').exists()).toBe(true);
  });
});

describe('delivery form data', () => {
  const STORES = [
    { id: 'st-s3', name: 'field-s3', type: 'S3', bucket: 'b1' },
    { id: 'st-gcs', name: 'archive', type: 'GCS', bucket: 'b2' },
  ];
  const form = (config: string, path: string) => ({
    ...emptyDeliveryForm(),
    catalogIds: ['c-1'],
    config,
    path,
  });

  it("checks a path against the chosen store's type: a URL of another type is refused", () => {
    const misfit = checkDeliveryForm(form('st-s3', 'gs://bucket/a/'), [], STORES);
    expect(misfit.payload).toBeNull();
    expect(misfit.errors.path).toBe(
      'field-s3 is a S3 store: a path URL must start with s3:// (or be a relative folder), not gs://',
    );
    expect(checkDeliveryForm(form('st-s3', 's3://bucket/a/'), [], STORES).payload).not.toBeNull();
    expect(checkDeliveryForm(form('st-gcs', 'exports/a/'), [], STORES).errors).toEqual({});
  });

  it("warns, and still queues, a config that is not one of the service's stores", () => {
    const check = checkDeliveryForm(form('old-bucket', 'a/'), [], STORES);
    expect(check.payload).not.toBeNull();
    expect(check.warnings.config).toBe(
      "Not one of the service's stores (field-s3 (S3), archive (GCS)): sent anyway, the service decides.",
    );
    // No stores listed (a service without the read): nothing to say.
    expect(checkDeliveryForm(form('old-bucket', 'a/')).warnings).toEqual({});
  });

  it('applies the one-source rule to every request, naming the one at fault', () => {
    const check = checkDeliveryForm(
      { ...emptyDeliveryForm(), catalogIds: ['c-1'], config: 'gcs', path: 'a/' },
      [
        {
          catalog_ids: ['c-2'],
          order_item_ids: ['oi-1'],
          cloud_info: { config: 'gcs', path: 'b/' },
        },
      ],
    );
    expect(check.payload).toBeNull();
    expect(check.errors.form).toBe(
      '2nd request › Order items: Pick records or order items, not both',
    );
  });

  it('reads an input back, the first request in the form and the rest aside', () => {
    const { form, others } = deliveryFormFromInput({
      deliveries: [
        { order_item_ids: ['oi-1'], cloud_info: { config: 'c', path: 'p' } },
        { catalog_ids: ['c-1'], cloud_info: { config: 'c', path: 'q' } },
      ],
    });
    expect(form).toEqual({
      source: 'orderItems',
      catalogIds: [],
      orderItemIds: ['oi-1'],
      config: 'c',
      path: 'p',
    });
    expect(others).toHaveLength(1);
  });
});

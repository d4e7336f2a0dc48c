import { buildOrder, buildOrderItem, buildTask, createRng } from '@eo/domain/testing';
import type L from 'leaflet';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useBasketStore } from '../../../stores/basket-store';
import { useConnectivityStore } from '../../../stores/connectivity';
import { useOutboxStore } from '../../../stores/outbox-store';
import { mountApp } from '../../../__tests__/mount-app';
import GeometryMap from '../../../map/GeometryMap.vue';
import OrdersScreen from '../OrdersScreen.vue';
import { KMZ } from '../../../capabilities/file-import/__tests__/preview-fixtures';
import { useComposerStore } from '../composer-store';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [10, 10],
      [10.3, 10],
      [10.3, 10.3],
      [10, 10.3],
      [10, 10],
    ],
  ],
};

function seed(): void {
  const rng = createRng(11);
  const order = buildOrder(
    {
      id: 'order-1',
      status: 'PAID',
      total_amount: 1234.5,
      created_at: '2024-05-17T08:30:00Z',
      paid_at: '2024-05-17T09:00:00Z',
    },
    { rng },
  );
  const item = buildOrderItem(
    {
      id: 'item-1',
      order_id: 'order-1',
      name: 'Vineyard north',
      type: 'TASKING',
      status: 'PARTIALLY_COMPLETED',
      payment_status: 'PARTIAL-REFUND',
      feasibility_status: 'WEAK_SUCCESS',
      area: 31.25,
      base_amount: 250,
      final_amount: 312.5,
      geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: square }] },
      tasks: [
        buildTask(
          {
            order_item_id: 'item-1',
            type: 'TASKING',
            status: 'COMPLETED',
            delivery_status: 'SUCCESSFUL',
            start_date: '03-06-2024',
            end_date: '21-06-2024',
          },
          { rng },
        ),
      ],
      validation_errors: [
        {
          code: 'SHORT_WINDOW',
          field: 'end_date',
          message: 'the last window is shorter than 3 days',
        },
        { code: 'ODD', reason: 'unexplained' },
      ],
    },
    { rng },
  );
  const archive = buildOrderItem(
    {
      id: 'item-2',
      order_id: 'order-1',
      name: 'Archive south',
      type: 'ARCHIVE',
      geometry: null,
      images: [{ item_id: 'AUR_1', geometry: square }],
    },
    { rng },
  );
  bridge.work.orders = [{ ...order, order_items: [item, archive] }];
  bridge.work.orderItems = [item, archive];
}

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 8 });
  provideBridge(bridge);
  seed();
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountScreen() {
  wrapper = mount(OrdersScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

describe('OrdersScreen: list and details', () => {
  it('lists orders with payment, total, times and item count, and opens their items', async () => {
    const w = await mountScreen();
    const row = w.find('[data-test="order-row-order-1"]');
    expect(row.find('.badge').text()).toContain('Paid');
    expect(row.find('[data-test="order-total"]').text()).toBe(
      `${(1234.5).toLocaleString(undefined, { minimumFractionDigits: 2 })} credits`,
    );
    expect(row.text()).toContain('2 items');
    // Listed by its items' names, not its id.
    expect(row.find('[data-test="order-title"]').text()).toBe('Vineyard north, Archive south');
    expect(row.text()).not.toContain('order-1');
    expect(row.text()).toMatch(/Created .*2024/);
    expect(row.text()).toMatch(/Paid .*2024/);

    await row.trigger('click');
    await flushPromises();
    expect(row.attributes('aria-pressed')).toBe('true');
    const item = w.find('[data-test="item-item-1"]');
    expect(item.text()).toContain('Vineyard north');
    expect(item.text()).toContain('Partially completed');
    expect(item.text()).toContain('Partial refund');
    expect(item.text()).toContain('Weak success');
    expect(item.find('[data-test="item-area"]').text()).toBe('31.25 km²');
    // Task dates arrive as DD-MM-YYYY and are shown as dates.
    const start = item.find('[data-test="task-start"]').text();
    expect(start).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }).format(Date.UTC(2024, 5, 3)),
    );
    expect(item.find('[data-test="task-end"]').text()).toMatch(/21/);
    const problems = item
      .find('[data-test="validation-errors"]')
      .findAll('li')
      .map((li) => li.text());
    expect(problems).toEqual([
      'the last window is shorter than 3 days (end date)',
      'code: ODD, reason: unexplained',
    ]);
  });

  it('ties list and map: hover and picks highlight both ways', async () => {
    const w = await mountScreen();
    await w.find('[data-test="order-row-order-1"]').trigger('click');
    await flushPromises();
    const map = w.findComponent(GeometryMap);
    const { layers } = (
      map.vm as unknown as { internals: () => { layers: Map<string, L.GeoJSON> } }
    ).internals();
    // The archive item has no geometry: its images' footprints are drawn instead.
    expect([...layers.keys()].sort()).toEqual(['item-1', 'item-2']);

    await w.find('[data-test="item-item-1"]').trigger('mouseenter');
    await flushPromises();
    expect(map.props('highlightedId')).toBe('item-1');
    const path = layers.get('item-1')!.getLayers()[0] as L.Path;
    expect(path.options.color).toBe('#ea580c');

    layers.get('item-2')!.fire('mouseover');
    await flushPromises();
    expect(w.find('[data-test="item-item-2"]').classes()).toContain('item--highlighted');
    layers.get('item-2')!.fire('click');
    await flushPromises();
    expect(w.find('[data-test="item-item-2"] .item__title').attributes('aria-pressed')).toBe(
      'true',
    );
  });

  it('shows queued orders from the outbox, marked as not sent yet', async () => {
    await bridge.call('outbox.enqueue', {
      kind: 'order',
      input: {
        order_items: [
          {
            name: 'Queued field',
            project_id: 'p1',
            geometry: {
              type: 'FeatureCollection',
              features: [{ type: 'Feature', geometry: square }],
            },
            start_date: '2030-01-01T00:00:00Z',
            end_date: '2030-01-10T00:00:00Z',
          },
        ],
      },
    });
    const w = await mountScreen();
    const queued = w.find('[data-test^="queued-order-"]');
    expect(queued.text()).toContain('queued — not sent yet');
    // Named by its items, as the mirrored orders are.
    expect(queued.find('.row__title').text()).toBe('Queued field');
    await queued.trigger('click');
    await flushPromises();
    expect(w.find('[data-test="queued-details"]').text()).toContain('Queued field');
    await w.find('[data-test="edit-queued"]').trigger('click');
    await flushPromises();
    // Editing opens the composer on the queued order.
    expect(w.find('[data-test="composer"] h2').text()).toBe('Edit queued order');
    expect((w.find('[data-test="field-name"]').element as HTMLInputElement).value).toBe(
      'Queued field',
    );
    expect(w.find('[data-test="queue-order"]').text()).toBe('Save changes');
  });

  it('a queued order the service refused says so, not "queued"', async () => {
    await bridge.call('outbox.enqueue', {
      kind: 'order',
      input: {
        order_items: [
          {
            name: 'Refused field',
            project_id: 'prj-gone',
            geometry: {
              type: 'FeatureCollection',
              features: [{ type: 'Feature', geometry: square }],
            },
            start_date: '2030-01-01T00:00:00Z',
            end_date: '2030-01-10T00:00:00Z',
          },
        ],
      },
    });
    bridge.work.outcome = () => ({
      ok: false,
      status: 400,
      message: 'order_items.0.project_id: unknown project "prj-gone"',
    });
    await bridge.call('outbox.flush');
    const w = await mountScreen();
    const row = w.find('[data-test^="queued-order-"]');
    expect(row.text()).toContain('refused by the service — see the Outbox');
    expect(row.text()).not.toContain('queued — not sent yet');
    await row.trigger('click');
    await flushPromises();
    const details = w.find('[data-test="queued-details"]');
    expect(details.text()).toContain('refused by the service — see the Outbox');
    expect(details.text()).not.toContain('It is submitted from the Outbox');
    expect(details.text()).toContain('unknown project "prj-gone"');
  });

  it('has an empty state', async () => {
    bridge.work.orders = [];
    const w = await mountScreen();
    expect(w.find('[data-test="orders-empty"]').text()).toMatch(/No orders in the mirror yet/);
  });
});

describe('OrderComposer in the screen', () => {
  async function openComposer() {
    await useConnectivityStore().check(); // the memory bridge answers online
    const w = await mountScreen();
    await w.find('[data-test="new-order"]').trigger('click');
    await flushPromises();
    return w;
  }

  it('speaks the form’s words: quiet until used, required by kind, summary on submit', async () => {
    const w = await openComposer();
    const form = w.find('form.composer__form');
    expectQuiet(form);
    const key = useComposerStore().items[0]!.key;
    expect(requiredControls(form)).toEqual([
      `${key}-name`,
      `${key}-project`,
      `${key}-start`,
      `${key}-end`,
    ]);
    await form.find('[data-test="field-kind"]').setValue('archive');
    expect(requiredControls(form)).toEqual([`${key}-name`, `${key}-project`, `${key}-item-ids`]);
    expect(await expectSummaryOnSubmit(form, () => form.trigger('submit'))).toEqual([
      'Name: Enter a name',
      'Project: Choose a project',
      `Area: Draw an area, import a file (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV) or use the basket`,
      'Archive scene ids: Add at least one archive scene id',
    ]);
  });

  it('shows field errors while typing and removes them when fixed', async () => {
    const w = await openComposer();
    const item = w.find('[data-test="composer-item-0"]');
    await item.find('[data-test="field-cloud-cover"]').setValue('150');
    expect(item.find('[data-test="error-cloud_cover"]').text()).toBe(
      'Cloud cover is at most 100 %',
    );
    expect(item.find('[data-test="field-cloud-cover"]').attributes('aria-invalid')).toBe('true');
    // Fields not typed in stay quiet.
    expect(item.find('[data-test="error-name"]').text()).toBe('');
    await item.find('[data-test="field-cloud-cover"]').setValue('15');
    expect(item.find('[data-test="error-cloud_cover"]').text()).toBe('');
    expect(item.find('[data-test="field-cloud-cover"]').attributes('aria-invalid')).toBe('false');

    // A refused submit shows every error and sends nothing.
    await w.find('[data-test="queue-order"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'outbox.enqueue')).toBe(false);
    expect(item.find('[data-test="error-name"]').text()).toBe('Enter a name');
    expect(item.find('[data-test="error-start_date"]').text()).toBe('Choose when it starts');
    // The summary at the top says it in the form's words; the focus is on the first field.
    const summary = w.find('[data-test="error-summary"]');
    expect(summary.text()).toContain('Name: Enter a name');
    expect(summary.text()).toContain('Project: Choose a project');
    expect(summary.text()).not.toMatch(/project_id|start_date/);
    expect(summary.find('a').attributes('href')).toBe(
      `#${item.find('[data-test="field-name"]').attributes('id')}`,
    );
  });

  it('previews the price with uplifts and feasibility, then queues the order', async () => {
    const w = await openComposer();
    const item = w.find('[data-test="composer-item-0"]');
    await item.find('[data-test="field-name"]').setValue('River bend');
    await item.find('[data-test="field-project"]').setValue('proj-1');
    await item.find('[data-test="field-start"]').setValue('2030-06-01T09:00');
    await item.find('[data-test="field-end"]').setValue('2030-06-20T09:00');
    // The backend reads the file (files.preview: src/backend/__tests__/files-preview.spec.ts).
    bridge.filePreviews.set('bend.geojson', {
      ...KMZ,
      file: 'bend.geojson',
      format: 'geojson',
      features: [{ ...KMZ.features[0]!, name: 'bend 1' }],
    });
    const file = new File([JSON.stringify(square)], 'bend.geojson');
    const input = item.find('[data-test="import-file"]');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
    expect(item.find('[data-test="geometry-state"]').text()).toBe('1 feature · bend.geojson');

    bridge.work.quote = () =>
      buildOrder({
        status: 'UNPAID',
        total_amount: 276,
        order_items: [
          buildOrderItem({
            name: 'River bend',
            base_amount: 200,
            final_amount: 276,
            feasibility_status: 'WEAK_SUCCESS',
            uplifts: [
              {
                item_id: 'uplift-strict-cloud-cover',
                title: 'Strict cloud cover',
                subtitle: 'cloud_cover <= 10',
                percentage: 20,
                amount: 40,
              },
              {
                item_id: 'uplift-low-off-nadir',
                title: 'Low off-nadir angle',
                subtitle: 'off_nadir <= 15',
                percentage: 18,
                amount: 36,
              },
            ],
            validation_errors: [
              {
                code: 'WEAK_FEASIBILITY',
                field: 'feasibility_status',
                message: 'few usable passes',
              },
            ],
          }),
        ],
      });
    await w.find('[data-test="preview-price"]').trigger('click');
    await flushPromises();
    const quote = w.find('[data-test="quote"]');
    expect(quote.find('[data-test="quote-feasibility"]').text()).toContain('Weak success');
    const uplifts = quote.find('[data-test="quote-uplifts"]').text();
    expect(uplifts).toContain('Strict cloud cover');
    expect(uplifts).toContain('cloud_cover <= 10');
    expect(uplifts).toContain('20 %');
    expect(uplifts).toContain('40.00');
    expect(quote.find('[data-test="quote-base"]').text()).toBe('200.00 credits');
    expect(quote.find('[data-test="quote-final"]').text()).toBe('276.00 credits');
    expect(quote.find('[data-test="quote-total"]').text()).toBe('276.00 credits');
    expect(quote.find('[data-test="quote-problems"]').text()).toBe(
      'few usable passes (feasibility status)',
    );
    // When it was quoted; gone offline, the old quote says it may have changed.
    expect(quote.find('[data-test="quote-time"]').text()).toMatch(/^Quoted at .+\.$/);
    const connectivity = useConnectivityStore();
    const online = connectivity.current;
    connectivity.current = {
      state: 'offline',
      checkedAt: '2030-01-01T00:00:00Z',
      since: '2030-01-01T00:00:00Z',
      message: 'connect ECONNREFUSED',
    };
    await flushPromises();
    expect(quote.find('[data-test="quote-time"]').text()).toContain(
      'while the service was reachable: the price may have changed since',
    );
    connectivity.current = online;
    await flushPromises();

    await w.find('[data-test="queue-order"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="queued-message"]').text()).toBe(
      'Order (1 item) is queued and will be submitted from the Outbox.',
    );
    expect((w.find('[data-test="field-name"]').element as HTMLInputElement).value).toBe('');
    expect(w.find('[data-test^="queued-order-"]').text()).toContain('River bend');
    expect(useOutboxStore().unsent('order')).toHaveLength(1);
  });

  it('disables the preview offline and says why; queueing still works', async () => {
    const w = await openComposer();
    useConnectivityStore().current = {
      state: 'offline',
      checkedAt: '2024-05-17T08:00:00Z',
      since: '2024-05-17T08:00:00Z',
      message: 'connect ECONNREFUSED',
    };
    await flushPromises();
    const preview = w.find('[data-test="preview-price"]');
    expect(preview.attributes('disabled')).toBeDefined();
    expect(preview.attributes('aria-describedby')).toBe('preview-blocked');
    expect(w.find('[data-test="preview-blocked"]').text()).toMatch(
      /Price preview needs the service \(offline\)/,
    );
    expect(w.find('[data-test="queue-order"]').attributes('disabled')).toBeUndefined();
  });

  it('takes the basket for an archive item, and Escape closes the panel', async () => {
    await useBasketStore().add([bridge.records[0]!.id, bridge.records[1]!.id]);
    const w = await openComposer();
    const item = w.find('[data-test="composer-item-0"]');
    await item.find('[data-test="field-kind"]').setValue('archive');
    const use = item.find('[data-test="use-selection"]');
    expect(use.text()).toBe('Use the 2 records in the basket');
    await use.trigger('click');
    await flushPromises();
    expect((item.find('[data-test="field-item-ids"]').element as HTMLTextAreaElement).value).toBe(
      `${bridge.records[0]!.details.id}\n${bridge.records[1]!.details.id}`,
    );
    expect(item.find('[data-test="geometry-state"]').text()).toBe(
      '2 features · Footprints of 2 catalog records',
    );

    await w.find('[data-test="composer"]').trigger('keydown', { key: 'Escape' });
    await flushPromises();
    expect(w.find('[data-test="composer"]').exists()).toBe(false);
    expect(document.activeElement?.getAttribute('data-test')).toBe('new-order');
  });

  it('shows why a field file is refused (the backend says which file and why)', async () => {
    const w = await openComposer();
    const input = w.find('[data-test="import-file"]');
    const file = new File(['{"type":"LineString","coordinates":[[0,0]]}'], 'bad.geojson');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
    expect(w.find('[data-test="file-import-error"]').text()).toBe(
      'bad.geojson: cannot read it as a field file',
    );
    expect(w.find('[data-test="geometry-state"]').text()).toBe('No area yet.');
  });
});

describe('App tabs', () => {
  it('offers Orders and AOIs after Catalog and opens them', async () => {
    wrapper = mountApp();
    await flushPromises();
    const tabs = wrapper.findAll('.top__tab').map((t) => t.text());
    expect(tabs.slice(0, 3)).toEqual(['Catalog', 'Orders', 'AOIs']);
    await wrapper.find('[data-screen="orders"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-test="order-row-order-1"]').exists()).toBe(true);
    await wrapper.find('[data-screen="aois"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-test="new-aoi"]').exists()).toBe(true);
  });
});

import { CreateOrderRequest, type FeatureCollectionInput } from '@eo/domain';
import { buildOrder, buildOrderItem } from '@eo/domain/testing';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useComposerStore } from '../composer-store';
import { useOutboxStore } from '../../outbox/outbox-store';
import { useSettingsStore } from '../../settings/settings-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 10 });
  provideBridge(bridge);
});

const area: FeatureCollectionInput = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [10, 10],
            [10.2, 10],
            [10.2, 10.2],
            [10, 10.2],
            [10, 10],
          ],
        ],
      },
    },
  ],
};
/** The RFC 3339 UTC instant of a local wall-clock time (the test runs in any zone). */
const utc = (y: number, m: number, d: number, h: number) =>
  new Date(y, m - 1, d, h, 0, 0).toISOString().replace('.000Z', 'Z');

function fillTasking(key: string, overrides: Record<string, string> = {}) {
  const c = useComposerStore();
  c.set(key, 'name', 'North field');
  c.set(key, 'projectId', 'proj-1');
  c.setGeometry(key, area, 'Drawn on the map');
  c.set(key, 'start', '2030-06-01T09:00');
  c.set(key, 'end', '2030-06-20T18:00');
  for (const [field, value] of Object.entries(overrides))
    c.set(key, field as never, value as never);
}

describe('composer validation (domain OrderItemInput)', () => {
  it('shows the domain message of a field once it was typed in, and drops it when fixed', () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    // Nothing typed yet: the item is invalid but no message is shown.
    expect(c.valid).toBe(false);
    expect(c.errorsOf(key)).toEqual({});

    c.set(key, 'name', '   ');
    expect(c.errorsOf(key)).toEqual({ name: 'Enter a name' });
    c.set(key, 'name', 'North field');
    expect(c.errorsOf(key).name).toBeUndefined();

    c.set(key, 'cloudCover', '120');
    expect(c.errorsOf(key).cloud_cover).toBe('Cloud cover is at most 100 %');
    c.set(key, 'offNadir', 'steep');
    expect(c.errorsOf(key).off_nadir).toBe('Off-nadir (°) must be a number');
    c.set(key, 'start', '2030-06-20T09:00');
    c.set(key, 'end', '2030-06-01T09:00');
    expect(c.errorsOf(key).end_date).toBe('End must be after start');
  });

  it('asks per kind for what the domain requires', () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    fillTasking(key, { start: '', end: '' });
    c.flow.showAll = true;
    expect(c.errorsOf(key)).toEqual({
      start_date: 'Choose when it starts',
      end_date: 'Choose when it ends',
    });

    c.setKind(key, 'recurring');
    fillTasking(key);
    expect(c.errorsOf(key)).toEqual({
      no_of_occurrences: 'Enter how many times',
    });
    c.set(key, 'occurrences', '4');
    expect(c.errorsOf(key)).toEqual({});

    c.setKind(key, 'archive');
    expect(c.errorsOf(key)).toEqual({
      item_ids: 'Add at least one archive scene id',
    });
    c.set(key, 'itemIds', 'scene-a\nscene-b');
    expect(c.valid).toBe(true);
    // An archive item never carries the recurring fields.
    expect(c.orderItems![0]).not.toHaveProperty('recurrence');
    expect(c.orderItems![0]).not.toHaveProperty('no_of_occurrences');
  });

  it('needs an area and the cloud delivery as a pair', () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    fillTasking(key);
    c.setGeometry(key, null, '');
    expect(c.errorsOf(key).geometry).toBe(
      `Draw an area, import a file (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV) or use the basket`,
    );
    c.setGeometry(key, area, 'fields.geojson');
    c.set(key, 'cloudPath', 's3://bucket/out/');
    expect(c.errorsOf(key)).toEqual({ 'cloud_delivery.config': 'Enter the config' });
    c.set(key, 'cloudConfig', 'aws-eu');
    expect(c.valid).toBe(true);
  });
});

describe('an area imported from a file', () => {
  const named = (name: unknown): FeatureCollectionInput => ({
    ...area,
    features: [{ ...area.features[0]!, properties: { name } }],
  });

  it('names an unnamed item after the feature (properties.name), and keeps a typed name', () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    c.importArea(key, named('  Hofacker Nord '), 'fields.geojson');
    expect(c.items[0]!.name).toBe('Hofacker Nord');
    expect(c.items[0]!.geometrySource).toBe('fields.geojson');
    c.set(key, 'name', 'Typed by hand');
    c.importArea(key, named('Other'), 'other.geojson');
    expect(c.items[0]!.name).toBe('Typed by hand');
  });

  it('leaves the name empty when the features carry none', () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    c.importArea(key, named(42), 'fields.geojson');
    expect(c.items[0]!.name).toBe('');
  });
});

describe('queueing through the outbox', () => {
  it('refuses while errors stand and sends nothing', async () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    c.set(key, 'name', 'x');
    expect(await c.submit()).toBeNull();
    expect(bridge.calls.some((x) => x.method === 'outbox.enqueue')).toBe(false);
    expect(c.flow.showAll).toBe(true);
    expect(c.errorsOf(key).project_id).toBe('Choose a project');
    // The summary lists what to correct, in the item's words, each pointing at its field.
    expect(c.formError).toBeNull();
    expect(c.summary).toContainEqual({
      field: 'project_id',
      target: `${key}-project`,
      text: 'Project: Choose a project',
    });
    c.addItem();
    expect(c.summary.map((l) => l.text)).toContain('Item 2 › Name: Enter a name');
  });

  it('enqueues exactly the domain request, then resets and says it is queued', async () => {
    const c = useComposerStore();
    const first = c.items[0]!.key;
    fillTasking(first, {
      cloudCover: '10',
      offNadir: '15',
      bandsetId: 'bs-aurora-rgbn',
      deliverySpeed: 'PRIORITY',
      usecase: 'agriculture',
    });
    c.addItem('archive');
    const second = c.items[1]!.key;
    expect(c.items[1]!.projectId).toBe('proj-1'); // carried over from the previous item
    c.set(second, 'name', 'Archive of the farm');
    c.setGeometry(second, area, 'Drawn on the map');
    c.set(second, 'itemIds', 'AUR_20240501, AUR_20240503');

    const entry = await c.submit();
    expect(entry?.kind).toBe('order');
    const sent = bridge.calls.find((x) => x.method === 'outbox.enqueue')!.input;
    const expected = {
      order_items: [
        {
          name: 'North field',
          project_id: 'proj-1',
          geometry: area,
          start_date: utc(2030, 6, 1, 9),
          end_date: utc(2030, 6, 20, 18),
          cloud_cover: 10,
          off_nadir: 15,
          bandset: { bandset_id: 'bs-aurora-rgbn' },
          delivery_speed: 'PRIORITY',
          usecase: 'agriculture',
        },
        {
          name: 'Archive of the farm',
          project_id: 'proj-1',
          geometry: area,
          item_ids: ['AUR_20240501', 'AUR_20240503'],
        },
      ],
    };
    expect(sent).toEqual({ kind: 'order', input: CreateOrderRequest.parse(expected) });
    expect(c.items).toHaveLength(1);
    expect(c.items[0]!.name).toBe('');
    expect(c.flow.done).toBe('Order (2 items) is queued and will be submitted from the Outbox.');
    expect(useOutboxStore().unsent('order')).toHaveLength(1);
  });

  it('puts the backend issues (input.order_items.N.field) on the fields', async () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    fillTasking(key);
    bridge.failWith(
      'outbox.enqueue',
      new ContractError('invalid_argument', 'invalid', {
        issues: [
          { path: 'input.order_items.0.project_id', message: 'No such project' },
          { path: 'input', message: 'The outbox is full' },
        ],
      }),
    );
    expect(await c.submit()).toBeNull();
    expect(c.errorsOf(key).project_id).toBe('No such project');
    expect(c.formError).toBe('The outbox is full');
    expect(c.items[0]!.name).toBe('North field'); // nothing lost
    c.set(key, 'projectId', 'proj-2');
    expect(c.errorsOf(key).project_id).toBeUndefined();
  });
});

describe('price preview (orders.quote)', () => {
  it('sends a dry run and keeps the answer until something changes', async () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    fillTasking(key, { deliverySpeed: 'EXPRESS' });
    const answer = buildOrder({
      status: 'UNPAID',
      total_amount: 150,
      order_items: [
        buildOrderItem({
          name: 'North field',
          base_amount: 100,
          final_amount: 150,
          feasibility_status: 'WEAK_SUCCESS',
          uplifts: [
            {
              item_id: 'uplift-delivery-express',
              title: 'Express delivery',
              subtitle: 'delivery_speed EXPRESS',
              percentage: 50,
              amount: 50,
            },
          ],
        }),
      ],
    });
    bridge.work.quote = () => answer;
    await c.preview();
    const call = bridge.calls.find((x) => x.method === 'orders.quote')!;
    expect(call.input).toMatchObject({ dry_run: true, order_items: [{ name: 'North field' }] });
    expect(c.quote?.total_amount).toBe(150);
    expect(c.quote?.order_items[0]?.uplifts?.[0]?.title).toBe('Express delivery');
    c.set(key, 'deliverySpeed', 'STANDARD');
    expect(c.quote).toBeNull();
  });

  it('maps the service field errors (order_items.N.field) back onto the items', async () => {
    const c = useComposerStore();
    fillTasking(c.items[0]!.key);
    c.addItem('archive');
    const archive = c.items[1]!.key;
    c.set(archive, 'name', 'Old scenes');
    c.setGeometry(archive, area, 'x');
    c.set(archive, 'itemIds', 'good-scene\nmissing-scene');
    bridge.failWith(
      'orders.quote',
      new ContractError('invalid_argument', 'validation failed', {
        issues: [
          { path: 'order_items.1.item_ids.1', message: 'no archive scene has this id' },
          { path: 'order_items.0.bandset.bandset_id', message: 'Unknown bandset' },
        ],
      }),
    );
    await c.preview();
    expect(c.quote).toBeNull();
    expect(c.errorsOf(archive).item_ids).toBe('missing-scene: No archive scene has this id');
    expect(c.errorsOf(c.items[0]!.key).bandset).toBe('Unknown bandset');
    expect(c.quoteError).toBeNull();
  });

  it('says why when the service cannot be asked', async () => {
    const c = useComposerStore();
    fillTasking(c.items[0]!.key);
    bridge.failWith('orders.quote', new ContractError('offline', 'connect ECONNREFUSED'));
    await c.preview();
    expect(c.quoteError?.title).toBe('The service is not reachable');
  });
});

describe('editing a queued order', () => {
  it('loads the entry, shows its last problems, and saves with outbox.edit', async () => {
    const queued = await bridge.call('outbox.enqueue', {
      kind: 'order',
      input: {
        order_items: [
          {
            name: 'Archive A',
            project_id: 'proj-9',
            geometry: area,
            item_ids: ['S1', 'S2'],
            start_date: '2030-01-01T00:00:00Z',
          },
          {
            name: 'Weekly watch',
            project_id: 'proj-9',
            geometry: area,
            recurrence: 'WEEKLY',
            no_of_occurrences: 3,
            start_date: '2030-02-01T00:00:00Z',
            end_date: '2030-03-01T00:00:00Z',
          },
        ],
      },
    });
    const outbox = useOutboxStore();
    await outbox.refresh();
    outbox.startEdit({
      ...queued,
      lastError: {
        kind: 'api',
        message: 'rejected',
        details: [{ path: 'order_items.0.item_ids.1', message: 'no archive scene has this id' }],
      },
    });
    const c = useComposerStore();
    c.edit(outbox.editing!);
    expect(c.editingId).toBe(queued.id);
    expect(c.items.map((d) => d.kind)).toEqual(['archive', 'recurring']);
    expect(c.items[0]!.itemIds).toBe('S1\nS2');
    expect(c.items[1]!.recurrence).toBe('WEEKLY');
    expect(c.items[1]!.occurrences).toBe('3');
    expect(c.errorsOf(c.items[0]!.key).item_ids).toBe('S2: No archive scene has this id');

    c.set(c.items[0]!.key, 'itemIds', 'S1\nS3');
    c.set(c.items[1]!.key, 'name', 'Weekly watch (north)');
    await c.submit();
    const edit = bridge.calls.find((x) => x.method === 'outbox.edit')!.input as {
      id: string;
      input: { order_items: Array<Record<string, unknown>> };
    };
    expect(edit.id).toBe(queued.id);
    expect(edit.input.order_items[0]).toMatchObject({
      item_ids: ['S1', 'S3'],
      start_date: '2030-01-01T00:00:00Z',
    });
    expect(edit.input.order_items[1]).toMatchObject({
      name: 'Weekly watch (north)',
      recurrence: 'WEEKLY',
      no_of_occurrences: 3,
    });
    expect(bridge.calls.filter((x) => x.method === 'outbox.enqueue')).toHaveLength(1);
    expect(outbox.editing).toBeNull();
    expect(c.editingId).toBeNull();
    expect(c.flow.done).toMatch(/^Changes saved/);
    expect(bridge.work.outbox[0]!.summary).toBe('Order · 2 items: Archive A, Weekly watch (north)');
  });
});

describe('the catalog selection', () => {
  it('gives an archive item the scene ids and footprints of the selected records', async () => {
    const c = useComposerStore();
    const key = c.items[0]!.key;
    c.setKind(key, 'archive');
    const picked = bridge.records.slice(0, 3);
    await c.useCatalogRecords(
      key,
      picked.map((r) => r.id),
    );
    const d = c.items[0]!;
    expect(d.itemIds.split('\n')).toEqual(picked.map((r) => r.details.id));
    expect(d.geometry?.features.map((f) => f.geometry)).toEqual(
      picked.map((r) => r.details.geometry),
    );
    expect(d.geometrySource).toBe('Footprints of 3 catalog records');
  });
});

describe("the service profile's rules and values", () => {
  async function speaking(dialect: 'spec' | 'provider-v0') {
    bridge.settings = { ...bridge.settings, dialect };
    await useSettingsStore().load();
  }

  it('provider-v0: usecase is required, its recurrences are offered and accepted', async () => {
    await speaking('provider-v0');
    const c = useComposerStore();
    const key = c.items[0]!.key;
    fillTasking(key);
    c.flow.showAll = true;
    expect(c.errorsOf(key).usecase).toBe('Choose a use case (this service needs one)');
    c.set(key, 'usecase', 'agriculture');
    expect(c.valid).toBe(true);

    c.addItem('recurring');
    const rec = c.items[1]!;
    // Our WEEKLY is not the provider's: the first recurring value it knows is the default.
    expect(rec.recurrence).toBe('MONTHLY');
    fillTasking(rec.key, { usecase: 'forestry', recurrence: 'BIMONTHLY', occurrences: '3' });
    expect(c.results[rec.key]).toMatchObject({ ok: true, value: { recurrence: 'BIMONTHLY' } });
  });

  it('spec: no usecase needed, WEEKLY by default', async () => {
    await speaking('spec');
    const c = useComposerStore();
    fillTasking(c.items[0]!.key);
    expect(c.valid).toBe(true);
    c.addItem('recurring');
    expect(c.items[1]!.recurrence).toBe('WEEKLY');
  });
});

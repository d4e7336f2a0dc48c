/**
 * The delivery form's "Records in an area from a file…" (happy-dom, memory bridge): a field
 * file picked with the shared preview, the mirrored records intersecting the picked features
 * listed (the catalog search's `intersects`), and the delivery queued with exactly their ids,
 * at most a delivery's id limit.
 */
import { LIMITS } from '@eo/domain';
import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { KMZ, square } from '../../../capabilities/file-import/__tests__/preview-fixtures';
import DeliveriesScreen from '../DeliveriesScreen.vue';
import { createAppRouter } from '../../../router';
import { createMemoryHistory } from 'vue-router';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
const rng = createRng(16);

/** A mirrored record whose footprint is a small square at (x, y). */
function recordAt(id: string, x: number, y: number) {
  const r = buildCatalogRecord({ id }, { rng });
  const geometry = square(x, y, 0.002);
  return { ...r, details: { ...r.details, geometry, bbox: [x, y, x + 0.002, y + 0.002] } };
}

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  bridge.filePreviews.set('felder.kmz', KMZ);
  // KMZ: "Wiese am Bach" at 14.1/46.2 (0.01°), "Brunnen" (a point), "Acker Nord" at 14.3/46.2.
  bridge.records.push(
    recordAt('in-wiese', 14.104, 46.204),
    recordAt('in-acker', 14.31, 46.21),
    recordAt('far-away', 10, 50),
  );
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function pickFile(name = 'felder.kmz'): Promise<VueWrapper> {
  wrapper = mount(DeliveriesScreen, {
    attachTo: document.body,
    global: { plugins: [createAppRouter(createMemoryHistory())] },
  });
  await flushPromises();
  await wrapper.find('[data-test="source-area"]').setValue(true);
  const input = wrapper.find('[data-test="delivery-area-file"]');
  Object.defineProperty(input.element, 'files', {
    value: [new File(['PK fake zip'], name)],
    configurable: true,
  });
  await input.trigger('change');
  await flushPromises();
  return wrapper;
}

async function queue(w: VueWrapper): Promise<void> {
  const form = w.find('[data-test="delivery-form"]');
  await form.find('input[name="config"]').setValue('aws-s3-eu-west-1');
  await form.find('input[name="path"]').setValue('deliveries/fields/');
  await form.trigger('submit');
  await flushPromises();
}

const enqueued = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue');
const areaIds = (w: VueWrapper) =>
  w.findAll('[data-test="area-ids"] li').map((li) => li.text().split(' · ')[0]);

describe('delivery of the records in an area from a file', () => {
  it('lists the records intersecting the picked features and queues exactly their ids', async () => {
    const w = await pickFile();
    expect(w.find('[data-test="file-import-preview"]').text()).toContain('felder.kmz');
    const search = bridge.calls.filter((c) => c.method === 'catalog.search').at(-1);
    expect(search?.input).toMatchObject({
      intersects: { type: 'MultiPolygon' },
      limit: LIMITS.maxIdsPerFilter,
    });
    expect(w.find('[data-test="area-summary"]').text()).toBe(
      '2 catalog records in the mirror intersect the 2 picked features (taken together).',
    );
    expect(areaIds(w).sort()).toEqual(['in-acker', 'in-wiese']);
    expect(w.find('[data-test="area-capped"]').exists()).toBe(false);

    await queue(w);
    expect(enqueued()).toHaveLength(1);
    const input = enqueued()[0]!.input as {
      input: { deliveries: Array<{ catalog_ids: string[] }> };
    };
    expect(input.input.deliveries[0]!.catalog_ids.sort()).toEqual(['in-acker', 'in-wiese']);
    expect(w.find('[data-test="form-done"]').text()).toBe(
      'Queued: delivery of 2 catalog records to deliveries/fields/.',
    );
    // Queued: the file is closed, its records are not offered a second time.
    expect(w.find('[data-test="file-import-preview"]').exists()).toBe(false);
    expect(w.find('[data-test="area-ids"]').exists()).toBe(false);
  });

  it('a feature unpicked leaves the area: only the other one’s records are listed', async () => {
    const w = await pickFile();
    await w.find('[data-test="import-pick-3"]').trigger('change'); // Acker Nord out
    await flushPromises();
    expect(areaIds(w)).toEqual(['in-wiese']);
    await queue(w);
    expect(enqueued()[0]!.input).toMatchObject({
      input: { deliveries: [{ catalog_ids: ['in-wiese'] }] },
    });
  });

  it('more records than a delivery takes: says so, and delivers the first ones only', async () => {
    for (let i = 0; i <= LIMITS.maxIdsPerFilter; i++)
      bridge.records.push(recordAt(`many-${i}`, 14.1 + (i % 40) * 0.0002, 46.2 + 0.0001));
    const w = await pickFile();
    expect(w.find('[data-test="area-summary"]').text()).toContain(
      `${LIMITS.maxIdsPerFilter + 3} catalog records`,
    );
    expect(w.find('[data-test="area-capped"]').text()).toContain(
      `A delivery takes at most ${LIMITS.maxIdsPerFilter} records: only the first ${LIMITS.maxIdsPerFilter} listed are delivered.`,
    );
    await queue(w);
    const ids = (
      enqueued()[0]!.input as { input: { deliveries: Array<{ catalog_ids: string[] }> } }
    ).input.deliveries[0]!.catalog_ids;
    expect(ids).toHaveLength(LIMITS.maxIdsPerFilter);
    expect(new Set(ids).size).toBe(LIMITS.maxIdsPerFilter);
  });

  it('a file with no area to search says so and queues nothing', async () => {
    const w = await pickFile();
    await w.find('[data-test="import-pick-1"]').trigger('change');
    await w.find('[data-test="import-pick-3"]').trigger('change');
    await flushPromises();
    expect(w.find('[data-test="area-source"]').text()).toContain(
      'Pick at least one feature with an area.',
    );
    await queue(w);
    expect(enqueued()).toHaveLength(0);
    expect(w.find('[data-test="source-error"]').text()).not.toBe('');
  });
});

/**
 * The AOI form's "Import a file…" in happy-dom: the file goes to the backend as base64
 * (`files.preview`, scripted in the memory bridge; the backend's reading of real files is
 * src/backend/__tests__/files-preview.spec.ts), the preview lists names, repairs and problems,
 * and the picked features become the form's area or one queued AOI each, all or nothing.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContractError, type FilePreview } from '../../../../shared/contract';
import { KMZ } from '../../../capabilities/file-import/__tests__/preview-fixtures';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import AoiForm from '../AoiForm.vue';
import { base64Of, fileRefusal } from '../../../stores/file-preview-store';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 2 });
  provideBridge(bridge);
  bridge.filePreviews.set('felder.kmz', KMZ);
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function pick(name: string, bytes: string = 'PK fake zip') {
  wrapper = mount(AoiForm, { attachTo: document.body });
  await flushPromises();
  const input = wrapper.find('[data-test="aoi-import"]');
  Object.defineProperty(input.element, 'files', {
    value: [new File([bytes], name)],
    configurable: true,
  });
  await input.trigger('change');
  await flushPromises();
  return wrapper;
}

async function fillSharedFields(w: VueWrapper) {
  await w.find('[data-test="aoi-satellite"]').setValue('aurora-1');
  await w.find('[data-test="aoi-provider"]').setValue('esa');
  await w.find('[data-test="aoi-project"]').setValue('proj-7');
  await w.find('[data-test="aoi-item-ids"]').setValue('AUR_1');
}

/** Every create queued: `outbox.enqueueAll` (one call of all), `outbox.enqueue` (one each). */
const enqueued = () =>
  bridge.calls.flatMap((c) =>
    c.method === 'outbox.enqueueAll'
      ? (c.input as { creates: unknown[] }).creates
      : c.method === 'outbox.enqueue'
        ? [c.input]
        : [],
  );

describe('AOI form: Import a file…', () => {
  it('names the formats it reads, not only GeoJSON', async () => {
    wrapper = mount(AoiForm, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-test="file-import-kinds"]').text()).toBe(
      'or drop one on the form: KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV',
    );
  });

  it('sends the bytes to the backend and lists names, repairs and problems', async () => {
    const w = await pick('felder.kmz');
    expect(bridge.calls.find((c) => c.method === 'files.preview')?.input).toEqual({
      name: 'felder.kmz',
      base64: btoa('PK fake zip'),
    });
    const preview = w.find('[data-test="file-import-preview"]');
    expect(preview.text()).toContain('felder.kmz: 3 features (kmz), 2 usable as areas');
    expect(w.find('[data-test="import-feature-1"]').text()).toContain(
      'Repaired: closed ring 1; removed 2 repeated positions',
    );
    expect(w.find('[data-test="import-feature-2"]').text()).toContain('a Point has no area');
    // The areas are picked; the point cannot be.
    const box = (i: number) => w.find(`[data-test="import-pick-${i}"]`).element as HTMLInputElement;
    expect([box(1).checked, box(2).checked, box(3).checked]).toEqual([true, false, true]);
    expect(box(2).disabled).toBe(true);
    // Two picked: one area needs "merge" first.
    expect(w.find('[data-test="import-use"]').attributes('disabled')).toBeDefined();
  });

  it('reads a file dropped anywhere on the form', async () => {
    wrapper = mount(AoiForm, { attachTo: document.body });
    await flushPromises();
    const file = new File(['PK fake zip'], 'felder.kmz');
    await wrapper
      .find('[data-test="aoi-name"]')
      .trigger('drop', { dataTransfer: { files: [file] } });
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'files.preview')).toHaveLength(1);
    expect(wrapper.find('[data-test="file-import-preview"]').text()).toContain(
      'felder.kmz: 3 features',
    );
  });

  it('one picked feature becomes the form area, named after it', async () => {
    const w = await pick('felder.kmz');
    await w.find('[data-test="import-pick-1"]').trigger('change');
    await w.find('[data-test="import-use"]').trigger('click');
    expect(w.find('[data-test="aoi-geometry-state"]').text()).toBe(
      'Polygon (1 part) · felder.kmz · Acker Nord',
    );
    expect((w.find('[data-test="aoi-name"]').element as HTMLInputElement).value).toBe('Acker Nord');
  });

  it('merged, the picked features are one MultiPolygon area', async () => {
    const w = await pick('felder.kmz');
    await w.find('[data-test="import-merge"]').setValue(true);
    expect(w.find('[data-test="import-queue-each"]').attributes('disabled')).toBeDefined();
    await w.find('[data-test="import-use"]').trigger('click');
    expect(w.find('[data-test="aoi-geometry-state"]').text()).toBe(
      'MultiPolygon (2 parts) · felder.kmz · 2 features merged',
    );
    expect((w.find('[data-test="aoi-name"]').element as HTMLInputElement).value).toBe('felder');
  });

  it('queues one AOI per picked feature, and nothing while the form lacks its fields', async () => {
    const w = await pick('felder.kmz');
    await w.find('[data-test="import-queue-each"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="file-import-error"]').text()).toBe(
      'Nothing queued. Fill in the form first (satellite, provider, project, archive scene ids).',
    );
    expect(w.find('[data-test="error-item_ids"]').text()).toContain(
      'Add at least one archive scene',
    );
    expect(enqueued()).toHaveLength(0);

    await fillSharedFields(w);
    await w.find('[data-test="import-queue-each"]').trigger('click');
    await flushPromises();
    // One call for all of them.
    expect(bridge.calls.filter((c) => c.method.startsWith('outbox.enqueue'))).toHaveLength(1);
    expect(enqueued()).toEqual(
      [KMZ.features[0]!, KMZ.features[2]!].map((f) => ({
        kind: 'aoi',
        input: {
          name: f.name,
          description: '',
          satellite_id: 'aurora-1',
          provider: 'esa',
          project_id: 'proj-7',
          geometry: f.area,
          item_ids: ['AUR_1'],
        },
      })),
    );
    expect(w.find('[data-test="file-import-done"]').text()).toBe(
      'Queued 2 AOIs (Wiese am Bach, Acker Nord); they will be submitted from the Outbox.',
    );
  });

  it('queues them in one call; a refusal of one queues none and names its feature', async () => {
    const w = await pick('felder.kmz');
    await fillSharedFields(w);
    bridge.failWith(
      'outbox.enqueueAll',
      new ContractError('invalid_argument', 'Nothing queued: creates.1.input.name: taken', {
        issues: [{ path: 'creates.1.input.name', message: 'taken' }],
      }),
    );
    await w.find('[data-test="import-queue-each"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="file-import-error"]').text()).toBe(
      'Nothing queued. feature 3 (Acker Nord): input.name: taken',
    );
    expect(bridge.calls.filter((c) => c.method.startsWith('outbox.enqueue'))).toHaveLength(1);
    expect(bridge.work.outbox).toEqual([]);
  });

  it('a file the backend cannot read says which file and why; another kind is not sent', async () => {
    bridge.failWith(
      'files.preview',
      new ContractError('invalid_argument', 'broken.kmz: cannot read it as KMZ: invalid zip data'),
    );
    const w = await pick('broken.kmz');
    expect(w.find('[data-test="file-import-error"]').text()).toBe(
      'broken.kmz: cannot read it as KMZ: invalid zip data',
    );
    expect(w.find('[data-test="file-import-preview"]').exists()).toBe(false);
    wrapper!.unmount();
    bridge.failWith('files.preview', null);
    const sentBefore = bridge.calls.length;
    const w2 = await pick('notes.docx');
    expect(w2.find('[data-test="file-import-error"]').text()).toContain(
      'notes.docx: not a field file this app reads',
    );
    expect(bridge.calls.slice(sentBefore).some((c) => c.method === 'files.preview')).toBe(false);
  });
});

describe('AOI form: Import a file…, larger files', () => {
  it('names the features from another attribute by reading the file again', async () => {
    const w = await pick('felder.kmz');
    const select = w.find('[data-test="import-name-field"]');
    expect(select.findAll('option').map((o) => o.text())).toEqual([
      'name, title or id',
      'name',
      'flur',
    ]);
    bridge.filePreviews.set('felder.kmz', {
      ...KMZ,
      features: KMZ.features.map((f) => ({ ...f, name: `Parcel ${f.index}` })),
    });
    await select.setValue('name');
    await flushPromises();
    const previews = bridge.calls.filter((c) => c.method === 'files.preview');
    expect(previews[1]!.input).toEqual({
      name: 'felder.kmz',
      base64: btoa('PK fake zip'),
      nameField: 'name',
    });
    expect(w.find('[data-test="import-feature-3"]').text()).toContain('Parcel 3');
    // The picks stay: the same features, named otherwise.
    expect((w.find('[data-test="import-pick-3"]').element as HTMLInputElement).checked).toBe(true);
  });

  it('draws 200 rows of a 1,000-feature file and picks all of them', async () => {
    const many: FilePreview = {
      ...KMZ,
      file: 'parcels.zip',
      format: 'shapefile',
      features: Array.from({ length: 1000 }, (_, i) => ({
        ...KMZ.features[0]!,
        index: i + 1,
        name: `Parcel ${i + 1}`,
      })),
    };
    bridge.filePreviews.set('parcels.zip', many);
    const w = await pick('parcels.zip');
    expect(w.findAll('[data-test^="import-feature-"]')).toHaveLength(200);
    expect(w.find('[data-test="import-hidden"]').text()).toBe(
      '… and 800 more features (picked if they are areas).',
    );
    expect(w.find('[data-test="import-queue-each"]').text()).toBe(
      'Queue 1000 AOIs, one per feature',
    );
  });
});

describe('file import helpers', () => {
  it('base64Of matches btoa over more than one slice', () => {
    const bytes = new Uint8Array(0x8000 + 5).map((_, i) => (i * 31) % 256);
    expect(base64Of(bytes)).toBe(btoa(String.fromCharCode(...bytes)));
  });

  it('fileRefusal: the extension and the size limit', () => {
    expect(fileRefusal({ name: 'A.KMZ', size: 10 })).toBeNull();
    expect(fileRefusal({ name: 'parcels.zip', size: 65 * 2 ** 20 })).toBe(
      'parcels.zip: 65 MB; at most 64 MB.',
    );
  });
});

import { buildAoi, buildAsset, createRng } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { lookupsFrom } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useOutboxStore } from '../../../stores/outbox-store';
import GeometryMap from '../../../map/GeometryMap.vue';
import AoisScreen from '../AoisScreen.vue';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 6 });
  provideBridge(bridge);
  const rng = createRng(5);
  bridge.work.aois = [
    buildAoi(
      {
        aoi_id: 'aoi-1',
        name: 'Delta fields',
        status: 'running',
        progress: 40,
        project_id: 'proj-3',
        area_in_sq_m: 2_500_000,
        created_at: '2024-05-17 08:30:00.123456+00:00',
      },
      { rng },
    ),
    buildAoi({ aoi_id: 'aoi-2', name: 'Hill orchards', status: 'success' }, { rng }),
  ];
  bridge.work.assets = [
    buildAsset(
      {
        aoi_id: 'aoi-1',
        date: '2024-05-12',
        asset_type: 'mosaic',
        status: 'running',
        progress: 55,
      },
      { rng },
    ),
  ];
  bridge.work.lookups = lookupsFrom({
    projectIds: ['proj-3'],
    bandsetIds: [],
    satellites: [{ id: 'aurora-1', bands: ['B02', 'B03', 'B04', 'B08'] }],
    workflowIds: [],
  });
});

afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountScreen() {
  wrapper = mount(AoisScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

describe('AoisScreen', () => {
  it('speaks the form’s words: quiet until used, required marked, summary on submit', async () => {
    const w = await mountScreen();
    await w.find('[data-test="new-aoi"]').trigger('click');
    await flushPromises();
    const form = w.find('[data-test="aoi-form"] form');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual([
      'aoi-name',
      'aoi-satellite',
      'aoi-provider',
      'aoi-project',
      'aoi-items',
    ]);
    expect(await expectSummaryOnSubmit(form, () => form.trigger('submit'))).toEqual([
      'Name: Enter a name',
      'Satellite: Choose a satellite',
      'Provider: Enter the provider',
      'Project: Choose a project',
      'Area: Draw the area on the map or import a file',
      'Archive scene ids: Add at least one archive scene (one id per line, or from the basket)',
    ]);
  });

  it('says why a failed AOI failed: its failed assets, or that the service gave no reason', async () => {
    const rng = createRng(9);
    bridge.work.aois = [
      buildAoi({ aoi_id: 'aoi-f', name: 'Failed field', status: 'failed', progress: 100 }, { rng }),
      buildAoi({ aoi_id: 'aoi-s', name: 'Silent field', status: 'failed', progress: 100 }, { rng }),
    ];
    bridge.work.assets = [
      buildAsset(
        {
          aoi_id: 'aoi-f',
          status: 'failed',
          description: 'Scene S1 does not intersect the AOI',
        },
        { rng },
      ),
    ];
    const w = await mountScreen();
    await w.find('[data-test="aoi-row-aoi-f"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="aoi-failure-reason"]').text()).toBe(
      'Scene S1 does not intersect the AOI',
    );
    await w.find('[data-test="aoi-row-aoi-s"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="aoi-failure-reason"]').text()).toBe('The service gave no reason.');
  });

  it('lists AOIs with status, progress, project, area and creation time; opens their assets', async () => {
    const w = await mountScreen();
    const row = w.find('[data-test="aoi-row-aoi-1"]');
    expect(row.text()).toContain('Delta fields');
    expect(row.find('.badge').text()).toContain('Running');
    const bar = row.find('[role="progressbar"]');
    expect(bar.attributes('aria-valuenow')).toBe('40');
    expect(bar.attributes('aria-valuemin')).toBe('0');
    expect(bar.attributes('aria-valuemax')).toBe('100');
    expect(bar.attributes('aria-label')).toBe('Progress of Delta fields');
    expect(row.text()).toContain('Project proj-3');
    expect(row.text()).toContain('2.5 km² (250 ha)');
    expect(row.text()).toMatch(/Created .*2024/);

    await row.trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'aois.assets')?.input).toEqual({ aoiId: 'aoi-1' });
    const asset = w.find('[data-test="assets"] tbody tr');
    expect(asset.find('[data-test="asset-date"]').text()).toBe(
      new Intl.DateTimeFormat(undefined, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }).format(Date.UTC(2024, 4, 12)),
    );
    expect(asset.text()).toContain('mosaic');
    expect(asset.find('[role="progressbar"]').attributes('aria-valuenow')).toBe('55');

    // Map -> list: hovering a shape highlights the row.
    const map = w.findComponent(GeometryMap);
    const { layers } = (
      map.vm as unknown as { internals: () => { layers: Map<string, L.GeoJSON> } }
    ).internals();
    layers.get('aoi-2')!.fire('mouseover');
    await flushPromises();
    expect(w.find('[data-test="aoi-row-aoi-2"]').classes()).toContain('row--hovered');
  });

  it('reloads when AOIs change', async () => {
    const w = await mountScreen();
    bridge.work.aois = [...bridge.work.aois, buildAoi({ aoi_id: 'aoi-3', name: 'New block' })];
    bridge.emit('records.changed', { kinds: ['aois'] });
    await flushPromises();
    expect(w.find('[data-test="aoi-row-aoi-3"]').exists()).toBe(true);
  });

  it('creates an AOI: draw, validate while typing, queue; the queued AOI shows in the list', async () => {
    const w = await mountScreen();
    await w.find('[data-test="new-aoi"]').trigger('click');
    await flushPromises();
    const form = w.find('[data-test="aoi-form"]');
    await form.find('[data-test="aoi-name"]').setValue(' ');
    expect(form.find('[data-test="error-name"]').text()).toBe('Enter a name');
    await form.find('[data-test="aoi-name"]').setValue('Levee strip');
    expect(form.find('[data-test="error-name"]').text()).toBe('');
    await form.find('[data-test="aoi-description"]').setValue('Along the levee');
    await form.find('[data-test="aoi-satellite"]').setValue('aurora-1');
    expect(form.find('datalist#aoi-satellites option').attributes('value')).toBe('aurora-1');
    await form.find('[data-test="aoi-provider"]').setValue('esa');
    await form.find('[data-test="aoi-project"]').setValue('proj-3');
    await form.find('[data-test="aoi-item-ids"]').setValue('AUR_9');

    // A polygon finished with geoman becomes the AOI's area.
    const map = w.findComponent(GeometryMap);
    const { map: leaflet } = (map.vm as unknown as { internals: () => { map: L.Map } }).internals();
    const drawn = L.polygon([
      [45, 5],
      [45, 5.2],
      [45.2, 5.2],
    ]);
    leaflet.fire('pm:create', { layer: drawn, shape: 'Polygon' });
    await flushPromises();
    expect(form.find('[data-test="aoi-geometry-state"]').text()).toBe(
      'Polygon (1 part) · Drawn on the map',
    );

    await form.find('[data-test="queue-aoi"]').trigger('click');
    await flushPromises();
    const sent = bridge.calls.find((c) => c.method === 'outbox.enqueue')?.input as {
      kind: string;
      input: Record<string, unknown>;
    };
    expect(sent.kind).toBe('aoi');
    expect(sent.input).toEqual({
      name: 'Levee strip',
      description: 'Along the levee',
      satellite_id: 'aurora-1',
      provider: 'esa',
      project_id: 'proj-3',
      item_ids: ['AUR_9'],
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [5, 45],
            [5.2, 45],
            [5.2, 45.2],
            [5, 45],
          ],
        ],
      },
    });
    expect(w.find('[data-test="aoi-queued-message"]').text()).toBe(
      'AOI "Levee strip" is queued and will be submitted from the Outbox.',
    );
    const queued = w.find('[data-test^="queued-aoi-"]');
    expect(queued.text()).toContain('Levee strip');
    expect(queued.text()).toContain('queued — not sent yet');
    expect(useOutboxStore().unsent('aoi')).toHaveLength(1);
  });

  it('shows why a file holds no area (read by the backend), and Escape closes the form', async () => {
    bridge.filePreviews.set('spot.json', {
      file: 'spot.json',
      format: 'geojson',
      sourceCrs: null,
      warnings: [],
      features: [
        {
          index: 1,
          name: 'spot 1',
          properties: {},
          geometryType: 'Point',
          area: null,
          repairs: [],
          problem: 'a Point has no area: an area needs a Polygon or MultiPolygon',
        },
      ],
    });
    const w = await mountScreen();
    await w.find('[data-test="new-aoi"]').trigger('click');
    await flushPromises();
    const input = w.find('[data-test="aoi-import"]');
    const file = new File([JSON.stringify({ type: 'Point', coordinates: [1, 2] })], 'spot.json');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
    const sent = bridge.calls.find((c) => c.method === 'files.preview')?.input;
    expect(sent).toEqual({
      name: 'spot.json',
      base64: btoa(JSON.stringify({ type: 'Point', coordinates: [1, 2] })),
    });
    expect(w.find('[data-test="import-feature-1"]').text()).toContain(
      'a Point has no area: an area needs a Polygon or MultiPolygon',
    );
    expect(w.find('[data-test="import-pick-1"]').attributes('disabled')).toBeDefined();
    expect(w.find('[data-test="aoi-geometry-state"]').text()).toBe('No area yet.');
    await w.find('[data-test="aoi-form"]').trigger('keydown', { key: 'Escape' });
    await flushPromises();
    expect(w.find('[data-test="aoi-form"]').exists()).toBe(false);
  });
});

import { buildAoi, buildAsset, buildSpectralIndex, buildVisualization } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { aoiCreate, indexCreate, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useConnectivityStore } from '../../../stores/connectivity';
import { useOutboxStore } from '../../outbox/outbox-store';
import IndicesScreen from '../IndicesScreen.vue';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
let queuedAoi: OutboxEntryView;
let queuedIndex: OutboxEntryView;

beforeEach(async () => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  const w = bridge.work;
  w.aois = [
    buildAoi({
      aoi_id: 'aoi-1',
      name: 'North field',
      satellite_id: 'sat-aurora-1',
      status: 'success',
    }),
  ];
  w.assets = [
    buildAsset({
      id: 'as-1',
      aoi_id: 'aoi-1',
      asset_type: 'scene',
      name: 'scene A',
      date: '2024-05-01',
    }),
    buildAsset({
      id: 'as-2',
      aoi_id: 'aoi-1',
      asset_type: 'scene',
      name: 'scene B',
      date: '2024-05-09',
    }),
    buildAsset({ id: 'as-3', aoi_id: 'aoi-1', asset_type: 'index', name: 'NDVI 2024-05-01' }),
  ];
  w.indices = [
    buildSpectralIndex({
      id: 'idx-ndvi',
      name: 'NDVI',
      type: 'preset',
      satellite_id: 'sat-aurora-1',
    }),
    buildSpectralIndex({
      id: 'idx-moist',
      name: 'Moisture',
      type: 'custom',
      satellite_id: 'sat-borealis-2',
      colormap: 'Blues',
    }),
  ];
  w.visualizations = [
    buildVisualization({
      id: 'vis-1',
      aoi_id: 'aoi-1',
      index_id: 'idx-ndvi',
      index_name: 'NDVI',
      status: 'creating',
      progress: 40,
      created_at: '2024-05-17 08:00:00.000000+00:00',
    }),
  ];
  queuedAoi = await queue(bridge, aoiCreate('South field'));
  queuedIndex = await queue(bridge, indexCreate('Red edge'));
  useConnectivityStore().current = {
    state: 'online',
    checkedAt: '2024-05-17T08:00:00.000Z',
    since: '2024-05-17T08:00:00.000Z',
  };
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountScreen(tab: 'indices' | 'visualizations' = 'visualizations') {
  wrapper = mount(IndicesScreen, { attachTo: document.body });
  await flushPromises();
  if (tab === 'visualizations') {
    await wrapper.find('[data-tab="visualizations"]').trigger('click');
    await flushPromises();
  }
  return wrapper;
}

const lastEnqueue = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue').at(-1);

describe('indices list', () => {
  it('lists presets, custom and queued indices, filtered by type and satellite', async () => {
    const w = await mountScreen('indices');
    const names = () => w.findAll('[data-test="index-table"] tbody th').map((th) => th.text());
    expect(names()).toEqual(['Red edge', 'NDVI', 'Moisture']);
    const queuedRow = w.find('[data-test="queued-index"]');
    expect(queuedRow.attributes('data-state')).toBe('queued');
    expect(queuedRow.text()).toContain('Queued');
    expect(w.find('[data-test="index-row"][data-id="idx-ndvi"]').text()).toContain('Preset');

    await w.find('[data-test="index-type-filter"]').setValue('preset');
    expect(names()).toEqual(['NDVI']);
    await w.find('[data-test="index-type-filter"]').setValue('custom');
    expect(names()).toEqual(['Red edge', 'Moisture']);
    await w.find('[data-test="index-satellite-filter"]').setValue('sat-borealis-2');
    expect(names()).toEqual(['Moisture']);
    await w.find('[data-test="index-type-filter"]').setValue('preset');
    expect(w.find('[data-test="indices-empty"]').text()).toBe('No index matches these filters.');
  });

  it('moves between the tabs with the arrow keys', async () => {
    const w = await mountScreen('indices');
    const tab = w.find('[data-tab="indices"]');
    expect(tab.attributes('role')).toBe('tab');
    expect(tab.attributes('aria-selected')).toBe('true');
    await tab.trigger('keydown', { key: 'ArrowRight' });
    expect(w.find('[data-tab="visualizations"]').attributes('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(w.find('[data-tab="visualizations"]').element);
    expect(w.find('#panel-visualizations').exists()).toBe(true);
  });
});

describe('visualizations', () => {
  it('speaks the form’s words: quiet until used, required marked, summary on submit', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="visualization-form"]');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual(['vis-aoi', 'vis-index']);
    expect(form.find('#vis-sources legend').text()).toMatch(/\*$/);
    expect(await expectSummaryOnSubmit(form, () => form.trigger('submit'))).toEqual([
      'AOI: Choose an AOI',
      'Index: Choose an index',
      'Source scenes: Choose at least one scene asset',
    ]);
  });

  it('lists created and queued ones with status, progress and local time', async () => {
    await queue(bridge, {
      kind: 'visualization',
      input: {
        aoi_id: `local:${queuedAoi.id}`,
        index_id: 'idx-ndvi',
        src_asset_ids: [`local:${queuedAoi.id}#scenes`],
      },
    });
    const w = await mountScreen();
    const row = w.find('[data-test="visualization-row"]');
    expect(row.find('th').text()).toBe('NDVI');
    expect(row.text()).toContain('North field');
    expect(row.find('[data-state="creating"]').text()).toBe('Creating');
    expect(row.find('[role="progressbar"]').attributes('aria-valuenow')).toBe('40');
    expect(row.text()).not.toContain('2024-05-17 08:00:00');
    const queuedRow = w.find('[data-test="queued-visualization"]');
    expect(queuedRow.text()).toContain('NDVI');
    expect(queuedRow.text()).toContain('South field (queued)');
    expect(queuedRow.find('[data-state="queued"]').text()).toBe('Queued');
  });

  it('creates one from a mirrored AOI and some of its scene assets', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="visualization-form"]');
    await form.find('select[name="aoi"]').setValue('aoi-1');
    await flushPromises();
    const boxes = form.findAll('input[name="asset"]');
    // Scene assets only (index assets cannot be sources), all chosen at first.
    expect(boxes.map((b) => (b.element as HTMLInputElement).value)).toEqual(['as-1', 'as-2']);
    expect(boxes.every((b) => (b.element as HTMLInputElement).checked)).toBe(true);
    await boxes[1]!.setValue(false);
    await form.find('select[name="index"]').setValue('idx-ndvi');
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'visualization',
      input: { aoi_id: 'aoi-1', index_id: 'idx-ndvi', src_asset_ids: ['as-1'] },
    });
    expect(w.find('[data-test="form-done"]').text()).toBe('Queued: NDVI on North field.');
  });

  it('creates one for a queued AOI from a queued index, by local ids', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="visualization-form"]');
    const aoiSelect = form.find('select[name="aoi"]');
    expect(aoiSelect.find(`option[value="local:${queuedAoi.id}"]`).text()).toBe(
      'South field (queued)',
    );
    await aoiSelect.setValue(`local:${queuedAoi.id}`);
    await flushPromises();
    expect(form.find('[data-test="sources-queued"]').text()).toContain(
      'All scene assets of the AOI, once it is created',
    );
    await form.find('select[name="index"]').setValue(`local:${queuedIndex.id}`);
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'visualization',
      input: {
        aoi_id: `local:${queuedAoi.id}`,
        index_id: `local:${queuedIndex.id}`,
        src_asset_ids: [`local:${queuedAoi.id}#scenes`],
      },
    });
    const entry = useOutboxStore().unsent('visualization')[0]!;
    expect(entry.dependsOn.sort()).toEqual([queuedAoi.id, queuedIndex.id].sort());
  });

  it('says what is missing; offers the AOI’s satellite’s indices, another one is an error (issue 26)', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="visualization-form"]');
    await form.trigger('submit');
    await flushPromises();
    expect(form.find('#vis-aoi-error').text()).toBe('Choose an AOI');
    expect(form.find('#vis-index-error').text()).toBe('Choose an index');
    expect(bridge.work.outbox.filter((e) => e.kind === 'visualization')).toEqual([]);

    // An index of another satellite chosen first, then the AOI: refused in the form.
    await form.find('select[name="index"]').setValue('idx-moist');
    await form.find('select[name="aoi"]').setValue('aoi-1');
    await flushPromises();
    await form.find('[data-test="sources"] button:nth-of-type(2)').trigger('click'); // None
    expect(form.find('#vis-assets-error').text()).toBe('Choose at least one scene asset');
    await form.find('[data-test="sources"] button:nth-of-type(1)').trigger('click'); // All
    expect(form.find('[data-test="satellite-mismatch"]').text()).toBe(
      "This index is made for sat-borealis-2 and the AOI's satellite is sat-aurora-1: choose an index of sat-aurora-1.",
    );
    await form.trigger('submit');
    await flushPromises();
    expect(bridge.work.outbox.filter((e) => e.kind === 'visualization')).toEqual([]);
    // Another index chosen: only the AOI's satellite's indices are offered from then on.
    await form.find('select[name="index"]').setValue('idx-ndvi');
    const offered = form.findAll('select[name="index"] option').map((o) => o.attributes('value'));
    expect(offered).toContain('idx-ndvi');
    expect(offered).not.toContain('idx-moist');
    expect(form.find('[data-test="satellite-mismatch"]').text()).toBe('');
  });

  it('edits a queued visualization handed over by the outbox', async () => {
    const entry = await queue(bridge, {
      kind: 'visualization',
      input: { aoi_id: 'aoi-1', index_id: 'idx-ndvi', src_asset_ids: ['as-2'] },
    });
    const outbox = useOutboxStore();
    await outbox.refresh();
    outbox.startEdit(outbox.byId.get(entry.id)!);
    // The screen opens on the tab of the entry's kind.
    wrapper = mount(IndicesScreen, { attachTo: document.body });
    await flushPromises();
    const w = wrapper;
    expect(w.find('[data-tab="visualizations"]').attributes('aria-selected')).toBe('true');
    const form = w.find('[data-test="visualization-form"]');
    expect(form.find('[data-test="editing-banner"]').exists()).toBe(true);
    expect((form.find('select[name="aoi"]').element as HTMLSelectElement).value).toBe('aoi-1');
    const checked = form
      .findAll('input[name="asset"]')
      .filter((b) => (b.element as HTMLInputElement).checked)
      .map((b) => (b.element as HTMLInputElement).value);
    expect(checked).toEqual(['as-2']);
    await form.find('input[name="asset"][value="as-1"]').setValue(true);
    await form.trigger('submit');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'outbox.edit')?.input).toEqual({
      id: entry.id,
      input: { aoi_id: 'aoi-1', index_id: 'idx-ndvi', src_asset_ids: ['as-2', 'as-1'] },
    });
  });

  it('re-reads unfinished visualizations on request', async () => {
    bridge.work.refreshed = 1;
    const w = await mountScreen();
    const before = bridge.calls.filter((c) => c.method === 'visualizations.list').length;
    bridge.work.visualizations = [
      { ...bridge.work.visualizations[0]!, status: 'success', progress: 100 },
    ];
    await w.find('[data-test="refresh-status"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'created.refresh')).toBe(true);
    expect(bridge.calls.filter((c) => c.method === 'visualizations.list').length).toBe(before + 1);
    expect(w.find('[data-test="visualization-row"] [data-state="success"]').text()).toBe('Done');
  });
});

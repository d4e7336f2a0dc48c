/**
 * Forms that know the ids (issue 17, item 12): the project, bandset, satellite and workflow
 * fields offer the service's lists as choices with names (filterable datalists; free entry
 * kept), Project offers projects only (never use-case values), the chosen id's name is shown,
 * Provider offers the satellites' and the profile's providers and says what it means, and the
 * choices are read again when a sync ends (a fresh install's first sync brings them).
 */
import { USECASES } from '@eo/domain';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { lookupsFrom } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { EMPTY_LOOKUPS, useLookupsStore } from '../../../stores/lookups';
import AoisScreen from '../../aois/AoisScreen.vue';
import JobForm from '../../jobs/JobForm.vue';
import OrderComposer from '../OrderComposer.vue';

const DEMO_LOOKUPS = () => {
  const l = lookupsFrom({
    projectIds: ['prj-demo-crops', 'prj-demo-floods'],
    bandsetIds: ['bs-aurora-rgbn'],
    workflowIds: ['wf-ndvi-timeseries', 'wf-cloud-mask'],
    satellites: [
      {
        id: 'sat-aurora-1',
        bands: ['B01', 'B05', 'B11'],
        bandsListed: true,
        providers: ['eo-field-desk'],
      },
    ],
    names: {
      'prj-demo-crops': 'Crop monitoring',
      'prj-demo-floods': 'Flood response',
      'bs-aurora-rgbn': 'Aurora-1 B02, B03, B04, B08',
      'wf-ndvi-timeseries': 'NDVI time series',
      'sat-aurora-1': 'Aurora-1',
    },
  });
  return {
    ...l,
    bandsets: l.bandsets.map((b) => ({
      ...b,
      satelliteId: 'sat-aurora-1',
      bands: ['B02', 'B03', 'B04', 'B08'],
    })),
  };
};

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  bridge.work.lookups = DEMO_LOOKUPS();
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const options = (w: VueWrapper, listId: string) =>
  w.findAll(`datalist[id$="${listId}"] option`).map((o) => ({
    value: o.attributes('value'),
    label: o.attributes('label'),
  }));

describe('id fields offer the known values as choices', () => {
  it("the composer's Project offers the projects by name and id, never use cases", async () => {
    await useLookupsStore().load();
    wrapper = mount(OrderComposer, { attachTo: document.body });
    await flushPromises();
    const item = wrapper.find('[data-test="composer-item-0"]');
    const project = item.find('[data-test="field-project"]');
    const listId = project.attributes('list')!;
    expect(project.attributes('autocomplete')).toBe('off');
    const projectOptions = options(wrapper, listId);
    expect(projectOptions).toEqual([
      { value: 'prj-demo-crops', label: 'Crop monitoring (prj-demo-crops)' },
      { value: 'prj-demo-floods', label: 'Flood response (prj-demo-floods)' },
    ]);
    expect(projectOptions.some((o) => (USECASES as readonly string[]).includes(o.value!))).toBe(
      false,
    );
    // Free entry stays; a known id shows its name under the field.
    await project.setValue('prj-demo-floods');
    expect(wrapper.find(`[data-test="${listId}-chosen"]`).text()).toBe('Flood response');
    await project.setValue('prj-elsewhere');
    expect(wrapper.find(`[data-test="${listId}-chosen"]`).exists()).toBe(false);

    const bandset = item.find('[data-test="field-bandset"]');
    expect(options(wrapper, bandset.attributes('list')!)).toEqual([
      {
        value: 'bs-aurora-rgbn',
        label:
          'Aurora-1 B02, B03, B04, B08 (bs-aurora-rgbn): sat-aurora-1, bands B02, B03, B04, B08',
      },
    ]);
  });

  it('the cloud location offers the configs records name, and the path the storage schemes', async () => {
    bridge.work.lookups = { ...DEMO_LOOKUPS(), cloudConfigs: ['field-bucket'] };
    await useLookupsStore().load();
    wrapper = mount(OrderComposer, { attachTo: document.body });
    await flushPromises();
    const item = wrapper.find('[data-test="composer-item-0"]');
    const config = item.find('[data-test="field-cloud-config"]');
    expect(options(wrapper, config.attributes('list')!).map((o) => o.value)).toEqual([
      'field-bucket',
    ]);
    const cloudPath = item.find('[data-test="field-cloud-path"]');
    expect(options(wrapper, cloudPath.attributes('list')!).map((o) => o.value)).toContain('s3://');
  });

  it('the job form offers workflows and projects with their names', async () => {
    await useLookupsStore().load();
    wrapper = mount(JobForm, { attachTo: document.body });
    await flushPromises();
    expect(options(wrapper, 'job-workflows')).toEqual([
      { value: 'wf-ndvi-timeseries', label: 'NDVI time series (wf-ndvi-timeseries)' },
      { value: 'wf-cloud-mask', label: 'wf-cloud-mask' },
    ]);
    expect(options(wrapper, 'job-projects').map((o) => o.value)).toEqual([
      'prj-demo-crops',
      'prj-demo-floods',
    ]);
  });

  it('the AOI form offers satellites with their bands, providers, and says what Provider is', async () => {
    wrapper = mount(AoisScreen, { attachTo: document.body });
    await flushPromises();
    await wrapper.find('[data-test="new-aoi"]').trigger('click');
    await flushPromises();
    expect(options(wrapper, 'aoi-satellites')).toEqual([
      { value: 'sat-aurora-1', label: 'Aurora-1 (sat-aurora-1): B01, B05, B11' },
    ]);
    expect(options(wrapper, 'aoi-providers').map((o) => o.value)).toEqual(['eo-field-desk']);
    const provider = wrapper.find('[data-test="aoi-provider"]');
    expect(provider.attributes('list')).toBe('aoi-providers');
    const hint = wrapper.find(`#${provider.attributes('id')}-hint`);
    expect(hint.text()).toContain('data provider');
    expect(provider.attributes('aria-describedby')).toContain(hint.attributes('id'));
  });
});

describe('ids the service does not list are flagged with the nearest (issue 26, defect 4)', () => {
  const listed = () => ({ ...DEMO_LOOKUPS(), ...lookupsFrom({ ...DEMO_IDS, listed: true }) });
  const DEMO_IDS = {
    projectIds: ['prj-demo-crops', 'prj-demo-floods'],
    bandsetIds: ['bs-aurora-rgbn'],
    workflowIds: ['wf-ndvi-timeseries', 'wf-cloud-mask'],
    satellites: [{ id: 'sat-aurora-1', bands: ['B01'] }],
  };

  it('in the composer: project and bandset, fixed in one click', async () => {
    bridge.work.lookups = { ...DEMO_LOOKUPS(), serviceIds: listed().serviceIds };
    await useLookupsStore().load();
    wrapper = mount(OrderComposer, { attachTo: document.body });
    await flushPromises();
    const item = wrapper.find('[data-test="composer-item-0"]');
    await item.find('[data-test="field-project"]').setValue('prj-demo-crop');
    await item.find('[data-test="field-bandset"]').setValue('bs-aurora-rgb');
    expect(item.find('[data-test="error-project_id"]').text()).toBe(
      '“prj-demo-crop” is not a project the service lists. Did you mean prj-demo-crops (Crop monitoring), prj-demo-floods (Flood response)? If it is new, sync to read the lists again.',
    );
    expect(item.find('[data-test="error-bandset"]').text()).toContain(
      'Did you mean bs-aurora-rgbn (Aurora-1 B02, B03, B04, B08)?',
    );
    await item.find('[data-test="project-nearest-choice"]').trigger('click');
    await item.find('[data-test="bandset-nearest-choice"]').trigger('click');
    expect((item.find('[data-test="field-project"]').element as HTMLInputElement).value).toBe(
      'prj-demo-crops',
    );
    expect(item.find('[data-test="error-project_id"]').text()).toBe('');
    expect(item.find('[data-test="error-bandset"]').text()).toBe('');
  });

  it('in the AOI form: satellite and project; nothing is flagged where the service gave no list', async () => {
    bridge.work.lookups = { ...DEMO_LOOKUPS(), serviceIds: listed().serviceIds };
    wrapper = mount(AoisScreen, { attachTo: document.body });
    await flushPromises();
    await wrapper.find('[data-test="new-aoi"]').trigger('click');
    await flushPromises();
    await wrapper.find('[data-test="aoi-satellite"]').setValue('sat-aurora1');
    await wrapper.find('[data-test="aoi-project"]').setValue('prj-demo-flood');
    expect(wrapper.find('[data-test="error-satellite_id"]').text()).toContain(
      'Did you mean sat-aurora-1 (Aurora-1)?',
    );
    expect(wrapper.find('[data-test="error-project_id"]').text()).toContain(
      '“prj-demo-flood” is not a project the service lists.',
    );
    await wrapper.find('[data-test="aoi-satellite-nearest-choice"]').trigger('click');
    expect(wrapper.find('[data-test="error-satellite_id"]').text()).toBe('');

    // A service that gives no lists: the ids are the service's to judge.
    bridge.work.lookups = DEMO_LOOKUPS();
    await useLookupsStore().load();
    await flushPromises();
    expect(wrapper.find('[data-test="error-project_id"]').text()).toBe('');
  });
});

describe('the choices follow the syncs', () => {
  it('are read again when a sync ends (a fresh install: empty, then the service lists)', async () => {
    bridge.work.lookups = EMPTY_LOOKUPS;
    const store = useLookupsStore();
    const stop = store.listen();
    try {
      await store.load();
      expect(store.lookups.projects).toEqual([]);
      bridge.work.lookups = DEMO_LOOKUPS();
      bridge.emit('sync.finished', (await bridge.call('sync.status')) as never);
      await flushPromises();
      expect(store.lookups.projects.map((p) => p.id)).toEqual([
        'prj-demo-crops',
        'prj-demo-floods',
      ]);
    } finally {
      stop();
    }
  });
});

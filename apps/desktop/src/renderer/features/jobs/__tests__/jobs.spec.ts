import { buildJob, buildJobTask } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { jobCreate, lookupsFrom, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useConnectivityStore } from '../../../stores/connectivity';
import JobsScreen from '../JobsScreen.vue';
import { checkJobForm } from '../job-form';
import { ContractError } from '../../../../shared/contract';
import { EMPTY_LOOKUPS } from '../../../stores/lookups';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  bridge.work.lookups = lookupsFrom({
    projectIds: ['prj-demo-crops', 'prj-forest'],
    bandsetIds: [],
    satellites: [],
    workflowIds: ['wf-ndvi-timeseries', 'wf-cloud-mask'],
  });
  bridge.work.jobs = [
    buildJob({
      id: 'job-1',
      workflow_id: 'wf-ndvi-timeseries',
      status: 'FAILED',
      progress: '0',
      cost: 1250,
      estimated_duration: 125,
      time_taken: null,
      created_at: '2024-05-17T08:00:00.000000Z',
      val_errors: [
        {
          from: 'project:prj-empty',
          to: 'collect-aois',
          err: 'NO_AOIS',
          reason: 'the project has no AOIs',
          component_name: 'collect-aois',
        },
      ],
      tasks: [
        buildJobTask({
          id: 't-1',
          name: 'collect-aois',
          status: 'SKIPPED',
          progress: 0,
          state_msg: 'skipped: validation failed',
          err_msg: '',
          failure_type: '',
        }),
        buildJobTask({
          id: 't-2',
          name: 'compute-ndvi',
          status: 'FAILED',
          progress: 100,
          state_msg: 'failed',
          err_msg: 'no finished scene',
          failure_type: 'INPUT',
        }),
      ],
    }),
    buildJob({
      id: 'job-2',
      workflow_id: 'wf-cloud-mask',
      status: 'RUNNING',
      progress: '45',
      cost: 300,
      estimated_duration: 3720,
      time_taken: '12.345s',
      val_errors: [],
    }),
  ];
  useConnectivityStore().current = {
    state: 'online',
    checkedAt: '2024-05-17T08:00:00.000Z',
    since: '2024-05-17T08:00:00.000Z',
  };
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  vi.useRealTimers();
});

async function mountScreen(): Promise<VueWrapper> {
  wrapper = mount(JobsScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const row = (w: VueWrapper, id: string) => w.find(`[data-test="job-row"][data-id="${id}"]`);
const lastEnqueue = () => bridge.calls.filter((c) => c.method === 'outbox.enqueue').at(-1);

describe('jobs list', () => {
  it('shows workflow, status, progress, cost, durations and created time', async () => {
    await queue(bridge, jobCreate('wf-cloud-mask', 'prj-forest'));
    const w = await mountScreen();
    const running = row(w, 'job-2');
    expect(running.find('th').text()).toBe('wf-cloud-mask');
    expect(running.find('[data-state="RUNNING"]').text()).toBe('Running');
    expect(running.find('[role="progressbar"]').attributes('aria-valuenow')).toBe('45');
    expect(running.text()).toContain('300');
    expect(running.text()).toContain('1 h 2 min');
    expect(running.text()).toContain('12.345s');
    const failed = row(w, 'job-1');
    expect(failed.find('[data-state="FAILED"]').text()).toBe('Failed');
    // Why, in the service's words (issue 17): its validation error and its failed task.
    expect(failed.find('[data-test="failure-reason"]').text()).toBe(
      'NO_AOIS: the project has no AOIs; no finished scene',
    );
    expect(row(w, 'job-2').find('[data-test="failure-reason"]').exists()).toBe(false);
    expect(failed.text()).toContain('1,250');
    expect(failed.text()).toContain('2 min 5 s');
    expect(failed.text()).not.toContain('2024-05-17T08');
    expect(failed.find('[data-test="job-details-toggle"]').text()).toContain('1 problem');
    const queued = w.find('[data-test="queued-job"]');
    expect(queued.text()).toContain('wf-cloud-mask');
    expect(queued.text()).toContain('for prj-forest');
    expect(queued.find('[data-state="queued"]').text()).toBe('Queued');
  });

  it('opens the tasks and the validation errors in plain words', async () => {
    const w = await mountScreen();
    const toggle = row(w, 'job-1').find('[data-test="job-details-toggle"]');
    expect(toggle.attributes('aria-expanded')).toBe('false');
    expect(w.find('[data-test="job-details"]').exists()).toBe(false);
    await toggle.trigger('click');
    expect(toggle.attributes('aria-expanded')).toBe('true');
    const details = w.find(`#${toggle.attributes('aria-controls')}`);
    expect(details.find('[data-test="val-errors"] li').text()).toBe(
      'NO_AOIS: the project has no AOIs (in collect-aois, from project:prj-empty to collect-aois)',
    );
    const tasks = details.findAll('[data-test="job-tasks"] tbody tr');
    expect(tasks.map((t) => t.find('th').text())).toEqual(['collect-aois', 'compute-ndvi']);
    expect(tasks[0]!.find('[data-state="SKIPPED"]').text()).toBe('Skipped');
    expect(tasks[0]!.text()).toContain('skipped: validation failed');
    expect(tasks[1]!.text()).toContain('100 %');
    expect(tasks[1]!.text()).toContain('no finished scene');
    expect(tasks[1]!.text()).toContain('(INPUT)');
    await toggle.trigger('click');
    expect(w.find('[data-test="job-details"]').exists()).toBe(false);
  });

  it('saves the results of a finished job, and says why when it cannot', async () => {
    const w = await mountScreen();
    // A running job has no results yet: no button in its details.
    await row(w, 'job-2').find('[data-test="job-details-toggle"]').trigger('click');
    expect(w.find('#job-details-job-2 [data-test="job-results"]').exists()).toBe(false);
    await row(w, 'job-1').find('[data-test="job-details-toggle"]').trigger('click');
    const details = w.find('#job-details-job-1');
    const button = details.find('[data-test="job-results"]');
    const outcome = details.find('[data-test="job-results-outcome"]');
    expect(outcome.attributes('role')).toBe('status');
    await button.trigger('click');
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'jobs.results').map((c) => c.input)).toEqual([
      { jobId: 'job-1' },
    ]);
    expect(outcome.text()).toMatch(/^Downloaded job-job-1-results\.json \(\d+ B\)\.$/);
    bridge.failWith(
      'jobs.results',
      new ContractError('busy', 'The service is still packaging the results of this job.'),
    );
    await button.trigger('click');
    await flushPromises();
    expect(outcome.text()).toBe(
      'Results not saved: The service is still packaging the results of this job.',
    );
    expect(button.attributes('disabled')).toBeUndefined();
  });

  it('re-reads while a job is unfinished', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const w = await mountScreen();
    const before = bridge.calls.filter((c) => c.method === 'jobs.list').length;
    bridge.work.jobs[1] = { ...bridge.work.jobs[1]!, status: 'SUCCEEDED', progress: '100' };
    vi.advanceTimersByTime(10_000);
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'created.refresh')).toHaveLength(1);
    expect(bridge.calls.filter((c) => c.method === 'jobs.list')).toHaveLength(before + 1);
    expect(row(w, 'job-2').find('[data-state="SUCCEEDED"]').text()).toBe('Succeeded');
    vi.advanceTimersByTime(20_000);
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'created.refresh')).toHaveLength(1);
  });

  it('has an empty state', async () => {
    bridge.work.jobs = [];
    const w = await mountScreen();
    expect(w.find('[data-test="jobs-empty"]').text()).toContain('No jobs yet.');
  });
});

describe('job form', () => {
  it('speaks the form’s words: quiet until used, required marked, summary on submit', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="job-form"]');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual(['job-workflow', 'job-project']);
    expect(await expectSummaryOnSubmit(form, () => form.trigger('submit'))).toEqual([
      'Workflow: Choose a workflow',
      'Project: Choose a project',
    ]);
  });

  it('checks both fields, suggests known values and queues the create call', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="job-form"]');
    expect(form.findAll('#job-workflows option').map((o) => o.attributes('value'))).toEqual([
      'wf-ndvi-timeseries',
      'wf-cloud-mask',
    ]);
    expect(form.find('input[name="project_id"]').attributes('list')).toBe('job-projects');
    await form.trigger('submit');
    await flushPromises();
    expect(form.find('#job-workflow-error').text()).toBe('Choose a workflow');
    expect(form.find('#job-project-error').text()).toBe('Choose a project');
    expect(bridge.work.outbox).toEqual([]);

    await form.find('input[name="workflow_id"]').setValue('wf-custom');
    expect(form.find('#job-workflow-error').text()).toBe('');
    expect(form.find('#job-workflow-warning').text()).toBe(
      'Not a workflow seen here (wf-ndvi-timeseries, wf-cloud-mask): the service decides whether it exists.',
    );
    await form.find('input[name="workflow_id"]').setValue(' wf-cloud-mask ');
    expect(form.find('#job-workflow-warning').text()).toBe('');
    await form.find('input[name="project_id"]').setValue('prj-forest');
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'job',
      input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-forest' },
    });
    expect(form.find('[data-test="form-done"]').text()).toBe(
      'Queued: job wf-cloud-mask for prj-forest.',
    );
    expect(w.find('[data-test="queued-job"]').exists()).toBe(true);
  });

  it('asks the service for the cost before queueing, shows it for those ids only and names it when queued', async () => {
    bridge.work.estimate = ({ workflowId, projectId }) =>
      workflowId === 'wf-nothing' ? null : { estimatedCost: projectId ? 42 : 7, aoiCount: 3 };
    const w = await mountScreen();
    const form = w.find('[data-test="job-form"]');
    const ask = form.find('[data-test="job-estimate-ask"]');
    expect(ask.attributes('disabled')).toBeDefined();
    await form.find('input[name="workflow_id"]').setValue('wf-cloud-mask');
    await form.find('input[name="project_id"]').setValue('prj-forest');
    await ask.trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'jobs.estimate')?.input).toEqual({
      workflowId: 'wf-cloud-mask',
      projectId: 'prj-forest',
    });
    expect(form.find('[data-test="job-estimate-value"]').text()).toBe(
      'About 42 credits over 3 AOIs, as the service estimates it now.',
    );
    // Another project: that estimate is not this job's.
    await form.find('input[name="project_id"]').setValue('prj-demo-crops');
    expect(form.find('[data-test="job-estimate-value"]').exists()).toBe(false);
    await form.find('input[name="project_id"]').setValue('prj-forest');
    await form.trigger('submit');
    await flushPromises();
    expect(form.find('[data-test="form-done"]').text()).toBe(
      'Queued: job wf-cloud-mask for prj-forest (estimated 42 credits).',
    );
    // A service without an estimate says so; a failure is shown, not thrown.
    await form.find('input[name="workflow_id"]').setValue('wf-nothing');
    await form.find('[data-test="job-estimate-ask"]').trigger('click');
    await flushPromises();
    expect(form.find('[data-test="job-estimate-value"]').text()).toMatch(/gives no cost estimate/);
    bridge.work.estimate = () => {
      throw new ContractError('offline', 'The service cannot be reached: try again when online.');
    };
    await form.find('input[name="workflow_id"]').setValue('wf-cloud-mask');
    await form.find('[data-test="job-estimate-ask"]').trigger('click');
    await flushPromises();
    expect(form.find('[data-test="job-estimate"]').text()).toMatch(/cannot be reached/);
  });

  it('accepts any value when nothing is known yet', () => {
    const check = checkJobForm({ workflow_id: 'wf-x', project_id: 'p' }, EMPTY_LOOKUPS);
    expect(check.warnings).toEqual({});
    expect(check.payload).toEqual({ workflow_id: 'wf-x', project_id: 'p' });
  });

  it('flags a misspelt workflow or project the service lists, and fixes it in one click (issue 26)', async () => {
    bridge.work.lookups = lookupsFrom({
      projectIds: ['prj-demo-crops', 'prj-demo-floods'],
      workflowIds: ['wf-ndvi-timeseries', 'wf-cloud-mask'],
      names: { 'wf-ndvi-timeseries': 'NDVI time series', 'prj-demo-crops': 'Crop monitoring' },
      listed: true,
    });
    const w = await mountScreen();
    const form = w.find('[data-test="job-form"]');
    await form.find('input[name="workflow_id"]').setValue('wf-ndvi-timesries');
    await form.find('input[name="project_id"]').setValue('prj-demo-crop');
    expect(form.find('#job-workflow-error').text()).toBe(
      '“wf-ndvi-timesries” is not a workflow the service lists. Did you mean wf-ndvi-timeseries (NDVI time series), wf-cloud-mask? If it is new, sync to read the lists again.',
    );
    expect(form.find('#job-project-error').text()).toContain(
      'Did you mean prj-demo-crops (Crop monitoring), prj-demo-floods?',
    );
    // Nothing is queued with an unknown id.
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()).toBeUndefined();
    // One click on the nearest one mends each field; then it queues.
    await form.find('[data-test="job-workflow-nearest-choice"]').trigger('click');
    await form.find('[data-test="job-project-nearest-choice"]').trigger('click');
    expect(form.find('#job-workflow-error').text()).toBe('');
    expect(form.find('#job-project-error').text()).toBe('');
    await form.trigger('submit');
    await flushPromises();
    expect(lastEnqueue()?.input).toEqual({
      kind: 'job',
      input: { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' },
    });
  });
});

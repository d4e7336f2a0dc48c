import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mountApp as mountWithRouter } from '../../../__tests__/mount-app';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { gateFlush, jobCreate, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 5 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountApp(address?: string): Promise<VueWrapper> {
  wrapper = mountWithRouter(address);
  await flushPromises();
  return wrapper;
}

describe('App and the outbox', () => {
  it('has compact tabs for every screen, part-2 ones before Sync', async () => {
    const w = await mountApp();
    expect(w.findAll('.top__tab').map((t) => t.attributes('data-screen'))).toEqual([
      'catalog',
      'orders',
      'aois',
      'archive',
      'indices',
      'deliveries',
      'jobs',
      'outbox',
      'sync',
      'settings',
    ]);
    for (const id of ['archive', 'indices', 'deliveries', 'jobs', 'outbox']) {
      await w.find(`[data-screen="${id}"]`).trigger('click');
      await flushPromises();
      expect(w.find(`[data-screen="${id}"]`).attributes('aria-current')).toBe('page');
      expect(w.find(`#${id}-title`).exists()).toBe(true);
    }
  });

  it('shows the pending count on the Outbox tab and a marker when some need attention', async () => {
    const w = await mountApp();
    expect(w.find('[data-test="outbox-badge"]').exists()).toBe(false);
    await queue(bridge, jobCreate('wf-a'));
    await queue(bridge, jobCreate('wf-b'));
    await flushPromises();
    const badge = w.find('[data-test="outbox-badge"]');
    expect(badge.text()).toBe('2');
    expect(badge.attributes('aria-label')).toBe('2 waiting to be sent');
    expect(w.find('[data-screen="outbox"]').element.contains(badge.element)).toBe(true);

    // An event from the backend moves the count before the list is read again.
    bridge.emit('outbox.changed', { pending: 3 });
    await w.vm.$nextTick();
    expect(w.find('[data-test="outbox-badge"]').attributes('aria-label')).toBe(
      '3 waiting to be sent',
    );
    await flushPromises();
    expect(w.find('[data-test="outbox-badge"]').text()).toBe('2');

    bridge.work.outcome = (e) =>
      e.input['workflow_id'] === 'wf-a' ? { ok: false, message: 'unknown workflow' } : { ok: true };
    await bridge.call('outbox.flush');
    await flushPromises();
    expect(w.find('[data-test="outbox-badge"]').exists()).toBe(false);
    expect(w.find('[data-test="outbox-attention"]').attributes('aria-label')).toBe(
      '1 needs attention',
    );
  });

  it('"Submit all" shows the batch progress and ends with the notification', async () => {
    await queue(bridge, jobCreate('wf-a'));
    await queue(bridge, jobCreate('wf-b'));
    await queue(bridge, jobCreate('wf-c'));
    const gated = gateFlush(bridge);
    provideBridge(gated);
    bridge.work.outcome = (e) =>
      e.input['workflow_id'] === 'wf-c'
        ? {
            ok: false,
            message: 'unknown workflow',
            details: [{ path: 'workflow_id', message: 'no such workflow' }],
          }
        : { ok: true };
    const w = await mountApp();
    await w.find('[data-screen="outbox"]').trigger('click');
    await flushPromises();
    await w.find('[data-test="submit-all"]').trigger('click');
    await flushPromises();
    const bar = () => w.find('[data-test="flush-progress"] [role="progressbar"]');
    expect(w.find('[data-test="submit-all"]').text()).toBe('Submitting…');
    expect(bar().attributes('aria-valuenow')).toBe('0');
    // While the batch runs, its entries are not edited or cancelled under it.
    const actions = w.findAll('[data-test="edit"], [data-test="cancel"]');
    expect(actions.length).toBe(6);
    for (const a of actions) expect(a.attributes('disabled')).toBeDefined();

    bridge.emit('outbox.progress', {
      sent: 1,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 2,
    });
    await flushPromises();
    expect(bar().attributes('aria-valuenow')).toBe('33');
    expect(bar().attributes('aria-valuetext')).toBe('1 of 3 handled (1 sent)');

    gated.release();
    await flushPromises();
    expect(w.find('[data-test="flush-progress"]').exists()).toBe(false);
    expect(w.find('[data-test="edit"]').attributes('disabled')).toBeUndefined();
    const toast = w.find('[data-test="batch-notification"]');
    expect(toast.find('[data-test="notification-created"]').text()).toBe('2 created.');
    expect(toast.find('[data-test="notification-attention"]').text()).toBe(
      '1 failed: needs attention.',
    );
    expect(toast.text()).toContain('Job · wf-c for prj-demo-crops: unknown workflow');
    expect(w.find('[data-test="outbox-attention"]').exists()).toBe(true);

    // From another screen, the toast leads to the outbox.
    await w.find('[data-screen="sync"]').trigger('click');
    await toast.find('[data-test="open-outbox"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="outbox"]').attributes('aria-current')).toBe('page');
    expect(w.find('[data-test="outbox-entry"][data-state="failed"]').text()).toContain(
      'Workflow: No such workflow',
    );
  });

  it('also notifies about the batch the backend runs on reconnect', async () => {
    const w = await mountApp();
    await queue(bridge, jobCreate('wf-a'));
    await bridge.call('outbox.flush'); // as the backend's auto-flush: only events reach the app
    await flushPromises();
    expect(w.find('[data-test="notification-created"]').text()).toBe('1 created.');
  });

  it('"Edit" in the outbox opens the screen whose form edits that kind', async () => {
    const job = await queue(bridge, jobCreate('wf-a', 'prj-1'));
    const w = await mountApp();
    await w.find('[data-screen="outbox"]').trigger('click');
    await flushPromises();
    await w
      .find(`[data-test="outbox-entry"][data-id="${job.id}"] [data-test="edit"]`)
      .trigger('click');
    await flushPromises();
    expect(w.find('[data-screen="jobs"]').attributes('aria-current')).toBe('page');
    const form = w.find('[data-test="job-form"]');
    expect(form.find('[data-test="editing-banner"]').text()).toContain('Job · wf-a for prj-1');
    expect((form.find('input[name="workflow_id"]').element as HTMLInputElement).value).toBe('wf-a');
    await form.find('input[name="workflow_id"]').setValue('wf-b');
    await form.trigger('submit');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'outbox.edit')?.input).toEqual({
      id: job.id,
      input: { workflow_id: 'wf-b', project_id: 'prj-1' },
    });
    expect(form.find('[data-test="editing-banner"]').exists()).toBe(false);
    expect(form.find('[data-test="form-done"]').text()).toContain('queued again');
  });

  it('gives the edit an address, and opening that address edits the entry', async () => {
    const job = await queue(bridge, jobCreate('wf-a', 'prj-1'));
    const w = await mountApp();
    const address = () => w.vm.$router.currentRoute.value.fullPath;
    expect(address()).toBe('/catalog');
    await w.find('[data-screen="outbox"]').trigger('click');
    await flushPromises();
    expect(address()).toBe('/outbox');
    await w
      .find(`[data-test="outbox-entry"][data-id="${job.id}"] [data-test="edit"]`)
      .trigger('click');
    await flushPromises();
    expect(address()).toBe(`/jobs?edit=${job.id}`);
    await w.find('[data-test="job-form"]').trigger('submit');
    await flushPromises();
    expect(address()).toBe('/jobs');
    wrapper!.unmount();

    setActivePinia(createPinia());
    const opened = await mountApp(`/jobs?edit=${job.id}`);
    expect(opened.find('[data-screen="jobs"]').attributes('aria-current')).toBe('page');
    const form = opened.find('[data-test="job-form"]');
    expect(form.find('[data-test="editing-banner"]').text()).toContain('Job · wf-a for prj-1');
    expect((form.find('input[name="project_id"]').element as HTMLInputElement).value).toBe('prj-1');
  });

  it('opens the form again when the entry being edited is edited again', async () => {
    const job = await queue(bridge, jobCreate('wf-a', 'prj-1'));
    const w = await mountApp();
    const edit = async () => {
      await w.find('[data-screen="outbox"]').trigger('click');
      await flushPromises();
      await w
        .find(`[data-test="outbox-entry"][data-id="${job.id}"] [data-test="edit"]`)
        .trigger('click');
      await flushPromises();
    };
    await edit();
    expect(w.find('[data-screen="jobs"]').attributes('aria-current')).toBe('page');
    await edit(); // left without saving, then "Edit" again
    expect(w.find('[data-screen="jobs"]').attributes('aria-current')).toBe('page');
    expect(w.find('[data-test="job-form"] [data-test="editing-banner"]').exists()).toBe(true);
  });

  it('reads the outbox once per change, whichever screen is open', async () => {
    const w = await mountApp();
    for (const id of ['orders', 'aois', 'outbox']) {
      await w.find(`[data-screen="${id}"]`).trigger('click');
      await flushPromises();
      const before = bridge.calls.filter((c) => c.method === 'outbox.list').length;
      bridge.emit('outbox.changed', { pending: 0 });
      await flushPromises();
      const reads = bridge.calls.filter((c) => c.method === 'outbox.list').length - before;
      expect(reads, id).toBe(1);
    }
  });
});

import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import {
  aoiCreate,
  indexCreate,
  jobCreate,
  orderCreate,
  queue,
} from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useConnectivityStore } from '../../../stores/connectivity';
import { useOutboxStore } from '../../../stores/outbox-store';
import { useSettingsStore } from '../../../stores/settings-store';
import OutboxScreen from '../OutboxScreen.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountScreen(online = true): Promise<VueWrapper> {
  const connectivity = useConnectivityStore();
  connectivity.current = online
    ? { state: 'online', checkedAt: '2024-05-17T08:00:00.000Z', since: '2024-05-17T08:00:00.000Z' }
    : {
        state: 'offline',
        checkedAt: '2024-05-17T08:00:00.000Z',
        since: '2024-05-17T08:00:00.000Z',
        message: 'ECONNREFUSED',
      };
  useOutboxStore().listen();
  wrapper = mount(OutboxScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const card = (w: VueWrapper, id: string) => w.find(`[data-test="outbox-entry"][data-id="${id}"]`);
const buttons = (w: VueWrapper, id: string) =>
  card(w, id)
    .findAll('.entry__actions button')
    .map((b) => b.attributes('data-test'));

/** An AOI the service refuses, a visualization on it (blocked), an index (sent), a job (queued). */
type Mixed = Record<'aoi' | 'vis' | 'index' | 'job', OutboxEntryView>;

async function mixedOutbox(): Promise<Mixed> {
  const aoi = await queue(bridge, aoiCreate('North field'));
  const vis = await queue(bridge, {
    kind: 'visualization',
    input: {
      aoi_id: `local:${aoi.id}`,
      index_id: 'idx-ndvi',
      src_asset_ids: [`local:${aoi.id}#scenes`],
    },
  });
  const index = await queue(bridge, indexCreate('Red edge'));
  bridge.work.outcome = (e) =>
    e.id === aoi.id
      ? {
          ok: false,
          status: 400,
          message: 'the AOI is not valid',
          details: [
            { path: 'item_ids.1', message: 'no archive scene itm-9' },
            { path: 'project_id', message: 'unknown project' },
          ],
        }
      : { ok: true, remoteId: 'idx-77' };
  await bridge.call('outbox.flush');
  const job = await queue(bridge, jobCreate('wf-ndvi-timeseries'));
  return { aoi, vis, index, job };
}

describe('OutboxScreen', () => {
  it('shows each entry with its state in words, what it depends on and why it stopped', async () => {
    const { aoi, vis, index, job } = await mixedOutbox();
    const w = await mountScreen();
    expect(w.find('[data-test="outbox-counts"]').text()).toBe(
      '1 waiting to be sent · 2 need attention · 1 sent',
    );

    const failed = card(w, aoi.id);
    expect(failed.attributes('data-state')).toBe('failed');
    expect(failed.find('[data-test="entry-state"]').text()).toBe('Failed');
    // The kind is shown beside the summary, so the summary does not repeat it.
    expect(failed.find('.entry__kind').text()).toBe('AOI');
    expect(failed.find('[data-test="entry-summary"]').text()).toBe('North field');
    expect(failed.find('[data-test="entry-problem"] p').text()).toBe(
      'The service refused it (HTTP 400, validation_failed): the AOI is not valid',
    );
    expect(failed.findAll('[data-test="entry-details"] li').map((li) => li.text())).toEqual([
      // In the AOI form's words.
      'Archive scenes › 2nd scene: No archive scene itm-9',
      'Project: Unknown project',
    ]);
    expect(failed.find('[data-test="attempts"]').text()).toBe('1');

    const blocked = card(w, vis.id);
    expect(blocked.find('[data-test="entry-state"]').text()).toBe('Blocked');
    expect(blocked.find('[data-test="depends-on"]').text()).toContain('AOI · North field');
    expect(blocked.find('[data-test="depends-on"]').text()).toContain('Failed');
    expect(blocked.find('[data-test="entry-problem"]').text()).toContain(
      'Not sent because “AOI · North field” failed.',
    );

    const sent = card(w, index.id);
    expect(sent.find('[data-test="entry-state"]').text()).toBe('Sent');
    expect(sent.find('[data-test="remote-id"]').text()).toBe('idx-77');
    expect(sent.text()).toContain('Sent');
    expect(sent.find('[data-test="entry-problem"]').exists()).toBe(false);

    expect(card(w, job.id).find('[data-test="entry-state"]').text()).toBe('Queued');
    // Timestamps in local time, not raw ISO.
    expect(card(w, job.id).text()).not.toContain('2024-05-17T');
  });

  it('shows the review of queued orders, unless Settings sends them automatically', async () => {
    await queue(bridge, aoiCreate('North field'));
    const w = await mountScreen();
    expect(w.find('[data-test="order-review"]').exists()).toBe(false);
    await queue(bridge, orderCreate('Field A'));
    await useOutboxStore().refresh();
    await flushPromises();
    expect(w.find('[data-test="order-review"]').exists()).toBe(true);
    expect(w.find('[data-test="submit-all"]').text()).toBe('Submit all but orders (1)');
    bridge.settings = { ...bridge.settings, autoSendOrders: true };
    await useSettingsStore().load();
    await flushPromises();
    expect(w.find('[data-test="order-review"]').exists()).toBe(false);
    expect(w.find('[data-test="submit-all"]').text()).toBe('Submit all (2)');
  });

  it('offers only the actions the entry allows', async () => {
    const { aoi, vis, index, job } = await mixedOutbox();
    const w = await mountScreen();
    expect(buttons(w, aoi.id)).toEqual(['edit', 'retry', 'cancel']);
    expect(buttons(w, vis.id)).toEqual(['edit', 'retry', 'cancel']);
    expect(buttons(w, index.id)).toEqual([]);
    expect(buttons(w, job.id)).toEqual(['edit', 'cancel']);

    await card(w, aoi.id).find('[data-test="retry"]').trigger('click');
    await flushPromises();
    expect(card(w, aoi.id).attributes('data-state')).toBe('queued');
    expect(bridge.calls.some((c) => c.method === 'outbox.retry')).toBe(true);

    await card(w, job.id).find('[data-test="edit"]').trigger('click');
    expect(useOutboxStore().editing?.id).toBe(job.id);
  });

  it('asks before cancelling and names the entries that would be blocked', async () => {
    const { aoi, vis } = await mixedOutbox();
    const w = await mountScreen();
    await card(w, aoi.id).find('[data-test="cancel"]').trigger('click');
    const confirm = card(w, aoi.id).find('[data-test="confirm-cancel"]');
    expect(confirm.attributes('role')).toBe('alertdialog');
    expect(confirm.text()).toContain('Cancel “AOI · North field”? It will not be sent.');
    expect(confirm.text()).toContain('will be blocked');
    expect(confirm.findAll('[data-test="confirm-dependents"] li').map((l) => l.text())).toEqual([
      vis.summary,
    ]);
    // Focus on the safe choice; keeping it sends nothing.
    expect(document.activeElement?.textContent?.trim()).toBe('Keep it');
    await confirm.findAll('button')[1]!.trigger('click');
    expect(card(w, aoi.id).find('[data-test="confirm-cancel"]').exists()).toBe(false);
    expect(bridge.calls.some((c) => c.method === 'outbox.cancel')).toBe(false);

    await card(w, aoi.id).find('[data-test="cancel"]').trigger('click');
    await card(w, aoi.id).find('[data-test="confirm-cancel"] .btn--danger').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((c) => c.method === 'outbox.cancel')?.input).toEqual({ id: aoi.id });
    expect(card(w, aoi.id).attributes('data-state')).toBe('cancelled');
  });

  it('lists what needs attention first, then what waits, then what is done', async () => {
    const { aoi, vis, index, job } = await mixedOutbox();
    const w = await mountScreen();
    expect(w.findAll('[data-test="outbox-entry"]').map((e) => e.attributes('data-id'))).toEqual([
      aoi.id,
      vis.id,
      job.id,
      index.id,
    ]);
  });

  it('filters by state', async () => {
    const { aoi, vis, job } = await mixedOutbox();
    const w = await mountScreen();
    expect(w.findAll('[data-test="outbox-entry"]')).toHaveLength(4);
    const filter = w.find('select[name="state-filter"]');
    expect(filter.findAll('option').map((o) => o.text())).toContain('Needs attention (2)');
    await filter.setValue('attention');
    expect(w.findAll('[data-test="outbox-entry"]').map((e) => e.attributes('data-id'))).toEqual([
      aoi.id,
      vis.id,
    ]);
    await filter.setValue('queued');
    expect(w.findAll('[data-test="outbox-entry"]').map((e) => e.attributes('data-id'))).toEqual([
      job.id,
    ]);
    await filter.setValue('cancelled');
    expect(w.find('[data-test="empty-filter"]').text()).toContain('No entries in this state.');
  });

  it('has an empty state', async () => {
    const w = await mountScreen();
    expect(w.find('[data-test="empty"]').text()).toContain('Nothing queued.');
    expect(w.find('[data-test="submit-all"]').attributes('disabled')).toBeDefined();
    expect(w.find('[data-test="submit-reason"]').text()).toBe('Nothing is waiting to be sent.');
  });

  it('disables "Submit all" offline and says why; online it submits', async () => {
    await queue(bridge, jobCreate('wf-a'));
    const w = await mountScreen(false);
    const submit = w.find('[data-test="submit-all"]');
    expect(submit.attributes('disabled')).toBeDefined();
    expect(submit.attributes('aria-describedby')).toBe('submit-reason');
    expect(w.find('#submit-reason').text()).toBe(
      'The service is not reachable; entries are submitted automatically when it is, orders once you confirm their prices.',
    );
    useConnectivityStore().current = {
      state: 'online',
      checkedAt: '2024-05-17T08:01:00.000Z',
      since: '2024-05-17T08:01:00.000Z',
    };
    await flushPromises();
    expect(submit.attributes('disabled')).toBeUndefined();
    expect(submit.text()).toBe('Submit all (1)');
    expect(w.find('[data-test="submit-reason"]').exists()).toBe(false);
    await submit.trigger('click');
    await flushPromises();
    expect(bridge.calls.some((c) => c.method === 'outbox.flush')).toBe(true);
    expect(w.find('[data-test="outbox-entry"]').attributes('data-state')).toBe('sent');
  });

  it('shows why a flush could not run', async () => {
    await queue(bridge, jobCreate('wf-a'));
    const w = await mountScreen();
    const { ContractError } = await import('../../../../shared/contract');
    bridge.failWith('outbox.flush', new ContractError('offline', 'connect ETIMEDOUT'));
    await w.find('[data-test="submit-all"]').trigger('click');
    await flushPromises();
    const alert = w.find('[data-test="outbox-action-error"]');
    expect(alert.attributes('role')).toBe('alert');
    expect(alert.text()).toContain('The service is not reachable');
    expect(alert.text()).toContain('connect ETIMEDOUT');
  });

  it('renders one page of 500+ entries, not 500 cards', async () => {
    for (let i = 0; i < 520; i++) await queue(bridge, jobCreate(`wf-${i}`));
    const w = await mountScreen();
    expect(useOutboxStore().entries).toHaveLength(520);
    const cards = w.findAll('[data-test="outbox-entry"]');
    expect(cards).toHaveLength(50);
    expect(cards[0]!.find('[data-test="entry-summary"]').text()).toBe('wf-0 for prj-demo-crops');
    expect(w.find('[data-test="page-info"]').text()).toBe('1–50 of 520');
    for (let p = 1; p < 11; p++) await w.find('[data-test="next-page"]').trigger('click');
    expect(w.find('[data-test="page-info"]').text()).toBe('501–520 of 520');
    expect(w.findAll('[data-test="outbox-entry"]')).toHaveLength(20);
    expect(w.find('[data-test="next-page"]').attributes('disabled')).toBeDefined();
  });

  it('an unconfirmed entry: when it left, what was sent, "It was created" (offered id) and "Send again"', async () => {
    const lost = await queue(bridge, jobCreate('wf-lost'));
    const other = await queue(bridge, jobCreate('wf-other'));
    const doubt = (id: string, candidateId?: string) => {
      const i = bridge.work.outbox.findIndex((e) => e.id === id);
      bridge.work.outbox[i] = {
        ...bridge.work.outbox[i]!,
        state: 'unconfirmed',
        attempts: 1,
        lastError: {
          kind: 'network',
          message:
            'may already be on the service (POST /v0/workflows/wf-lost/jobs: socket hang up)',
          inDoubt: true,
          attemptedAt: '2024-05-17T08:00:00.000Z',
          ...(candidateId ? { candidateId } : {}),
        },
        can: { edit: false, retry: false, cancel: true, confirm: true, resend: true },
      };
    };
    doubt(lost.id, 'job-77');
    doubt(other.id);
    const w = await mountScreen();
    expect(w.find('[data-test="outbox-counts"]').text()).toContain('2 need attention');
    const c = card(w, lost.id);
    expect(c.attributes('data-state')).toBe('unconfirmed');
    expect(c.find('[data-test="entry-state"]').text()).toBe('Unconfirmed');
    expect(buttons(w, lost.id)).toEqual(['cancel']);
    expect(c.find('[data-test="attempted-at"]').exists()).toBe(true);
    expect(c.find('[data-test="sent-input"]').text()).toContain('"workflow_id": "wf-lost"');
    expect(c.find('[data-test="entry-problem"]').text()).toContain(
      'The service never said whether it created this',
    );
    expect((c.find('[data-test="remote-id-input"]').element as HTMLInputElement).value).toBe(
      'job-77',
    );
    await c.find('[data-test="confirm-created"]').trigger('submit');
    await flushPromises();
    expect(bridge.calls.find((x) => x.method === 'outbox.confirm')?.input).toEqual({
      id: lost.id,
      remoteId: 'job-77',
    });
    expect(card(w, lost.id).attributes('data-state')).toBe('sent');
    // No id offered and none typed: "It was created" waits for one.
    const o = card(w, other.id);
    expect(o.find('[data-test="confirm-created"]').attributes('disabled')).toBeDefined();
    await o.find('[data-test="resend"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.find((x) => x.method === 'outbox.resend')?.input).toEqual({ id: other.id });
    expect(card(w, other.id).attributes('data-state')).toBe('queued');
  });
});

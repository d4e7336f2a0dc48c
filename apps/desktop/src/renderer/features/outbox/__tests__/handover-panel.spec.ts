/**
 * "Hand over queued work…" and "Send handed-over work…" on the Outbox screen, in happy-dom over
 * the memory bridge (the backend's files: src/backend/__tests__/outbox-handover.spec.ts): what
 * the file takes and its size shown before writing, the file downloaded in browser mode and the
 * work handed over (one taken back from its card); in Electron a cancelled save takes the work
 * back; a picked file's entries said queued; a refusal said as an alert, nothing handed over.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { aoiCreate, orderCreate, queue } from '../../../__tests__/work-fixtures';
import { provideBridge } from '../../../stores/bridge-provider';
import { useOutboxStore } from '../outbox-store';
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
  vi.restoreAllMocks();
});

async function mountScreen(): Promise<VueWrapper> {
  await queue(bridge, aoiCreate('North field'));
  await queue(bridge, orderCreate('South field'));
  useOutboxStore().listen();
  wrapper = mount(OutboxScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

const callsOf = (method: string) => bridge.calls.filter((c) => c.method === method);
const states = () => bridge.work.outbox.map((e) => e.state);
const text = (w: VueWrapper, test: string) => w.find(`[data-test="${test}"]`).text();

async function plan(w: VueWrapper): Promise<void> {
  await w.find('[data-test="handover-plan"]').trigger('click');
  await flushPromises();
}
async function save(w: VueWrapper): Promise<void> {
  await w.find('[data-test="handover-save"]').trigger('click');
  await flushPromises();
}

describe('Hand over queued work…', () => {
  it('shows what the file takes and its size, then downloads it (browser mode)', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const w = await mountScreen();
    await plan(w);
    expect(text(w, 'handover-contents')).toMatch(
      /^A file for a laptop with a link: 2 queued creates \(1 AOI, 1 order\); 1\.8 KB; 1 order waits there for a confirmation at a fresh quote\. Once saved, this laptop never sends them\.$/,
    );
    expect(w.find('.handover__entries').text()).toContain('North field');
    expect(callsOf('outbox.handOver')).toEqual([]);
    expect(states()).toEqual(['queued', 'queued']);

    await save(w);
    expect(callsOf('outbox.handOver').map((c) => c.input)).toEqual([
      { ids: bridge.work.outbox.map((e) => e.id) },
    ]);
    expect(click).toHaveBeenCalledTimes(1);
    expect(states()).toEqual(['handed_over', 'handed_over']);
    expect(text(w, 'handover-outcome')).toBe(
      'Handed over 2 queued creates in eo-handover-2-creates-20261129-0400.json: the laptop that opens it sends them; this one never will.',
    );
    // Nothing queued is left to hand over.
    expect(w.find('[data-test="handover-plan"]').attributes('disabled')).toBeDefined();

    // The other laptop never got it (the stick was lost): one entry taken back, queued here.
    const takeBack = w.findAll('[data-test="take-back"]');
    expect(takeBack.length).toBe(2);
    await takeBack[0]!.trigger('click');
    await flushPromises();
    expect(states()).toEqual(['queued', 'handed_over']);
    expect(w.findAll('[data-test="take-back"]').length).toBe(1);
  });

  it('takes the work back when the save dialog was cancelled (Electron)', async () => {
    bridge.work.handoverSavedTo = null;
    const w = await mountScreen();
    await plan(w);
    await save(w);
    expect(callsOf('outbox.takeBack').length).toBe(1);
    expect(states()).toEqual(['queued', 'queued']);
    expect(text(w, 'handover-outcome')).toBe(
      'Not handed over: the dialog was cancelled; the work stays here.',
    );
  });

  it('says where Electron saved it', async () => {
    bridge.work.handoverSavedTo = '/media/stick/work.json';
    const w = await mountScreen();
    await plan(w);
    await save(w);
    expect(callsOf('outbox.takeBack')).toEqual([]);
    expect(text(w, 'handover-outcome')).toMatch(
      /^Handed over 2 queued creates in \/media\/stick\/work\.json/,
    );
  });

  it('says a refusal as an alert, nothing handed over', async () => {
    bridge.failWith(
      'outbox.handOver',
      new ContractError(
        'busy',
        'The outbox is sending: hand over queued work when the batch has finished.',
      ),
    );
    const w = await mountScreen();
    await plan(w);
    await save(w);
    const outcome = w.find('[data-test="handover-outcome"]');
    expect(outcome.attributes('role')).toBe('alert');
    expect(outcome.text()).toBe(
      'Not handed over: The outbox is sending: hand over queued work when the batch has finished.',
    );
    expect(states()).toEqual(['queued', 'queued']);
  });
});

describe('Send handed-over work…', () => {
  async function pick(w: VueWrapper, file: File): Promise<void> {
    const input = w.find('[data-test="handover-file"]');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
  }

  it('sends the picked file as bytes and says what was queued', async () => {
    const w = await mountScreen();
    await pick(w, new File(['{}'], 'work.json', { type: 'application/json' }));
    expect(callsOf('outbox.receiveHandover').map((c) => c.input)).toEqual([
      { name: 'work.json', base64: 'e30=' },
    ]);
    expect(text(w, 'handover-outcome')).toBe(
      "Queued 2 creates from another laptop (1 order waits for your review at today's price).",
    );
  });

  it('refuses a file that is not JSON before sending it, and says the backend’s refusal', async () => {
    const w = await mountScreen();
    await pick(w, new File(['x'], 'site.gpkg'));
    expect(text(w, 'handover-outcome')).toBe('site.gpkg: handed-over work is a .json file.');
    expect(callsOf('outbox.receiveHandover')).toEqual([]);

    bridge.failWith(
      'outbox.receiveHandover',
      new ContractError(
        'invalid_argument',
        "work.json: The handed-over work is from another origin: it was made from the service https://eo.elsewhere.example, this laptop's is http://127.0.0.1:8080. Nothing was changed.",
      ),
    );
    await pick(w, new File(['{}'], 'work.json'));
    const outcome = w.find('[data-test="handover-outcome"]');
    expect(outcome.attributes('role')).toBe('alert');
    expect(outcome.text()).toMatch(
      /^Not taken in: work\.json: .*another origin.*Nothing was changed\.$/,
    );
  });
});

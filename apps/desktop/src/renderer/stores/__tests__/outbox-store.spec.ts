import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick, watch } from 'vue';
import { ContractError } from '../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { aoiCreate, jobCreate, queue } from '../../__tests__/work-fixtures';
import { provideBridge } from '../bridge-provider';
import { flushFraction, isEmptyBatch, useOutboxStore } from '../outbox-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
});

const listCalls = () => bridge.calls.filter((c) => c.method === 'outbox.list').length;

describe('outbox store', () => {
  it('reads entries and counts; pending is queued + sending, attention is failed + blocked', async () => {
    const outbox = useOutboxStore();
    expect(outbox.pending).toBe(0);
    const aoi = await queue(bridge, aoiCreate('North field'));
    await queue(bridge, {
      kind: 'visualization',
      input: {
        aoi_id: `local:${aoi.id}`,
        index_id: 'idx-ndvi',
        src_asset_ids: [`local:${aoi.id}#scenes`],
      },
    });
    await queue(bridge, jobCreate('wf-ndvi-timeseries'));
    await outbox.refresh();
    expect(outbox.entries.map((e) => e.kind)).toEqual(['aoi', 'visualization', 'job']);
    expect(outbox.pending).toBe(3);
    expect(outbox.needsAttention).toBe(0);
    expect(outbox.unsent('aoi').map((e) => e.id)).toEqual([aoi.id]);
    expect(outbox.dependentsOf.get(aoi.id)?.map((e) => e.kind)).toEqual(['visualization']);

    bridge.work.outcome = (e) =>
      e.kind === 'aoi' ? { ok: false, message: 'unknown project' } : { ok: true };
    await outbox.flush();
    expect(outbox.counts).toMatchObject({ failed: 1, blocked: 1, sent: 1, queued: 0 });
    expect(outbox.pending).toBe(0);
    expect(outbox.needsAttention).toBe(2);
    // A failed AOI can still be edited and sent: it stays offered to local-id pickers.
    expect(outbox.unsent('aoi').map((e) => e.state)).toEqual(['failed']);
    expect(outbox.unsent('job')).toEqual([]);
  });

  it('shows the pending count of an event at once, then the list read it triggers', async () => {
    const outbox = useOutboxStore();
    const stop = outbox.listen();
    await queue(bridge, jobCreate('wf-a'));
    await queue(bridge, jobCreate('wf-b'));
    // The memory bridge emits outbox.changed on enqueue; a later event may say more.
    bridge.emit('outbox.changed', { pending: 7 });
    expect(outbox.pending).toBe(7);
    await new Promise((r) => setTimeout(r, 0));
    expect(outbox.pending).toBe(2);
    expect(outbox.entries).toHaveLength(2);
    stop();
    expect(bridge.listenerCount('outbox.changed')).toBe(0);
    expect(bridge.listenerCount('outbox.finished')).toBe(0);
  });

  it('collapses a burst of refreshes into one read after the running one', async () => {
    const outbox = useOutboxStore();
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => outbox.refresh()));
    expect(listCalls()).toBe(2);
    await outbox.refresh();
    expect(listCalls()).toBe(3);
  });

  it('follows progress and finished events, also of batches it did not start', async () => {
    const outbox = useOutboxStore();
    outbox.listen();
    bridge.emit('outbox.progress', {
      sent: 2,
      failed: 1,
      blocked: 0,
      unconfirmed: 0,
      remaining: 5,
    });
    expect(outbox.progress).toEqual({
      sent: 2,
      failed: 1,
      blocked: 0,
      unconfirmed: 0,
      remaining: 5,
    });
    expect(flushFraction(outbox.progress!)).toBeCloseTo(3 / 8, 5);
    const result = { sent: 7, failed: 1, blocked: 0, unconfirmed: 0, remaining: 0, problems: [] };
    bridge.emit('outbox.finished', result);
    expect(outbox.progress).toBeNull();
    expect(outbox.lastResult).toEqual(result);
    expect(outbox.resultSeq).toBe(1);
    // The same figures again are another batch: still news.
    bridge.emit('outbox.finished', { ...result });
    expect(outbox.resultSeq).toBe(2);
  });

  it('counts a "Submit all" once, whether its result comes as the event or the answer', async () => {
    await queue(bridge, jobCreate('wf-a'));
    const listening = useOutboxStore();
    listening.listen();
    await listening.refresh();
    const r = await listening.flush();
    expect(r?.sent).toBe(1);
    expect(listening.resultSeq).toBe(1);
    expect(listening.lastResult?.sent).toBe(1);
    expect(listening.flushing).toBe(false);
    expect(listening.progress).toBeNull();

    setActivePinia(createPinia());
    await queue(bridge, jobCreate('wf-b'));
    const deaf = useOutboxStore(); // no listener: the answer is the result
    await deaf.refresh();
    await deaf.flush();
    expect(deaf.resultSeq).toBe(1);
    expect(deaf.lastResult?.sent).toBe(1);
    expect(deaf.counts?.sent).toBe(2);
  });

  it('says why "Submit all" failed and keeps the entries', async () => {
    const outbox = useOutboxStore();
    await queue(bridge, jobCreate('wf-a'));
    await outbox.refresh();
    bridge.failWith('outbox.flush', new ContractError('offline', 'connect ECONNREFUSED'));
    expect(await outbox.flush()).toBeNull();
    expect(outbox.actionError?.title).toBe('The service is not reachable');
    expect(outbox.actionError?.message).toBe('connect ECONNREFUSED');
    expect(outbox.flushing).toBe(false);
    expect(outbox.progress).toBeNull();
    expect(outbox.lastResult).toBeNull();
    expect(outbox.pending).toBe(1);
  });

  it('retries, cancels and edits as the entry allows; refusals become a readable error', async () => {
    const outbox = useOutboxStore();
    const north = await queue(bridge, aoiCreate('North field'));
    const south = await queue(bridge, aoiCreate('South field'));
    const job = await queue(bridge, jobCreate('wf-a'));
    bridge.work.outcome = (e) =>
      e.kind === 'aoi'
        ? { ok: false, message: 'invalid', details: [{ path: 'project_id', message: 'unknown' }] }
        : { ok: true, remoteId: 'job-1' };
    await outbox.flush();
    expect(outbox.byId.get(north.id)?.state).toBe('failed');

    expect(await outbox.retry(north.id)).toBe(true);
    expect(outbox.byId.get(north.id)?.state).toBe('queued');
    expect(outbox.byId.get(north.id)?.lastError).toBeNull();

    // A sent entry cannot be cancelled: the store says so, and a list read keeps the message.
    expect(await outbox.cancel(job.id)).toBe(false);
    expect(outbox.actionError?.code).toBe('conflict');
    await outbox.refresh();
    expect(outbox.actionError?.title).toBe('Not possible right now');
    expect(outbox.byId.get(job.id)?.state).toBe('sent');

    outbox.startEdit(outbox.byId.get(south.id)!);
    expect(outbox.editing?.id).toBe(south.id);
    const renamed = { ...outbox.byId.get(south.id)!.input, name: 'East field' };
    const saved = await outbox.saveEdit(south.id, renamed);
    expect(saved.summary).toBe('AOI · East field');
    expect(saved.state).toBe('queued');
    expect(outbox.editing).toBeNull();
    expect(bridge.calls.find((c) => c.method === 'outbox.edit')?.input).toEqual({
      id: south.id,
      input: renamed,
    });

    const later = await queue(bridge, jobCreate('wf-b'));
    expect(await outbox.cancel(later.id)).toBe(true);
    expect(outbox.actionError).toBeNull();
    expect(outbox.byId.get(later.id)?.state).toBe('cancelled');
  });

  it('reports "Edit" on the entry already being edited as a new edit (the app opens its form)', async () => {
    const outbox = useOutboxStore();
    const job = await queue(bridge, jobCreate('wf-a'));
    await outbox.refresh();
    const seen: Array<string | undefined> = [];
    watch(
      () => outbox.editing,
      (e) => seen.push(e?.id),
    );
    const entry = outbox.byId.get(job.id)!;
    outbox.startEdit(entry);
    await nextTick();
    outbox.startEdit(entry);
    await nextTick();
    outbox.stopEdit();
    await nextTick();
    expect(seen).toEqual([job.id, job.id, undefined]);
  });

  it('rejects an invalid enqueue with the field issues for the form', async () => {
    const outbox = useOutboxStore();
    const err = await outbox
      .enqueue({ kind: 'job', input: { workflow_id: '', project_id: 'p' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContractError);
    expect((err as ContractError).details?.issues?.[0]?.path).toBe('input.workflow_id');
    expect(outbox.entries).toEqual([]);
  });

  it('tells an empty batch from news', () => {
    expect(isEmptyBatch({ sent: 0, failed: 0, blocked: 0, unconfirmed: 0, remaining: 4 })).toBe(
      true,
    );
    expect(isEmptyBatch({ sent: 0, failed: 0, blocked: 1, unconfirmed: 0, remaining: 0 })).toBe(
      false,
    );
    expect(flushFraction({ sent: 0, failed: 0, blocked: 0, unconfirmed: 0, remaining: 0 })).toBe(0);
  });
});

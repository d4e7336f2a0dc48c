/**
 * What a person decides about an entry, offline: edit it, retry it, cancel it, and for one in
 * doubt (`unconfirmed`), confirm it is on the service or have it sent again. Each is refused
 * (an `OutboxStateError`) in a state where it would be a false promise.
 */
import { blockDependents, orderItemsUnknown, unblockDependents } from './dependents';
import { OutboxStateError } from './errors';
import type { makeInputChecks } from './input-checks';
import type { OutboxEntry, OutboxStore } from './store';

const hasOrderItems = (response: unknown) =>
  Array.isArray((response as { order_items?: unknown } | null)?.order_items);

export function makeUserDecisions(deps: {
  readonly store: OutboxStore;
  readonly micros: () => number;
  readonly checkInput: ReturnType<typeof makeInputChecks>;
}) {
  const { store, micros, checkInput } = deps;
  const mustGet = (id: string) => store.mustGet(id);

  function mustUnconfirmed(id: string, action: string): OutboxEntry {
    const entry = mustGet(id);
    if (entry.state !== 'unconfirmed') {
      throw new OutboxStateError(
        `Entry ${id} is ${entry.state}; only an unconfirmed entry can be ${action}`,
      );
    }
    return entry;
  }

  function edit(id: string, input: unknown): OutboxEntry {
    const entry = mustGet(id);
    const editable =
      entry.state === 'failed' ||
      entry.state === 'blocked' ||
      (entry.state === 'queued' && entry.attempts === 0);
    if (!editable) {
      throw new OutboxStateError(
        entry.state === 'queued'
          ? `Entry ${id} was already attempted and may be on the service; flush it first`
          : `Entry ${id} is ${entry.state} and cannot be edited`,
      );
    }
    const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
    const dependsOn = checkInput(entry.kind, copy, { seqLimit: entry.seq, self: id });
    store.transaction(() => {
      const at = micros();
      store.setInput(id, copy, dependsOn, at);
      unblockDependents(store, id, at);
    });
    return mustGet(id);
  }

  function retry(id: string): OutboxEntry {
    const entry = mustGet(id);
    if (entry.state === 'unconfirmed') {
      // Retry is the everyday button; an unconfirmed entry is resent only when asked by name.
      throw new OutboxStateError(
        `Entry ${id} may already be on the service: confirm it, resend it, or cancel it`,
      );
    }
    if (entry.state !== 'failed' && entry.state !== 'blocked' && entry.state !== 'queued') {
      throw new OutboxStateError(`Entry ${id} is ${entry.state} and cannot be retried`);
    }
    store.transaction(() => {
      const at = micros();
      store.setState(id, 'queued', entry.state === 'queued' ? entry.lastError : null, null, at);
      unblockDependents(store, id, at);
    });
    return mustGet(id);
  }

  function cancel(id: string): OutboxEntry {
    const entry = mustGet(id);
    if (entry.state === 'sending' || entry.state === 'sent') {
      throw new OutboxStateError(`Entry ${id} is ${entry.state} and cannot be cancelled`);
    }
    if (entry.state === 'handed_over') {
      throw new OutboxStateError(
        `Entry ${id} was handed over to another laptop, which may send it: take it back first`,
      );
    }
    if (entry.state === 'queued' && entry.attempts > 0) {
      // A lost response may mean it is on the service: cancelling would be a false promise.
      throw new OutboxStateError(
        `Entry ${id} was already attempted and may be on the service; flush it first`,
      );
    }
    store.transaction(() => {
      const at = micros();
      store.setState(id, 'cancelled', entry.lastError, null, at);
      // Dependents are blocked, not cancelled with it: the user edits or cancels them.
      blockDependents(store, id, mustGet(id), at);
    });
    return mustGet(id);
  }

  function confirm(id: string, remoteId?: string): OutboxEntry {
    const entry = mustUnconfirmed(id, 'confirmed');
    const given = remoteId?.trim() || entry.lastError?.candidateId;
    if (!given) {
      throw new OutboxStateError(
        `Entry ${id}: give the id the service gave it (no candidate was found)`,
      );
    }
    store.transaction(() => {
      const at = micros();
      store.markSent(id, entry.response, given, at);
      if (entry.kind === 'order' && !hasOrderItems(entry.response)) {
        // Deliveries name its items (`local:<id>#n`), which only its answer lists.
        for (const dep of store.dependents(id)) {
          if (dep.state !== 'blocked') continue;
          store.setState(dep.id, 'blocked', orderItemsUnknown(entry), null, at);
        }
      } else unblockDependents(store, id, at);
    });
    return mustGet(id);
  }

  function resend(id: string): OutboxEntry {
    mustUnconfirmed(id, 'sent again');
    store.transaction(() => {
      const at = micros();
      // The user's say: no longer in doubt, so the next flush sends it (same key).
      store.setState(id, 'queued', null, null, at);
      unblockDependents(store, id, at);
    });
    return mustGet(id);
  }

  return { edit, retry, cancel, confirm, resend };
}

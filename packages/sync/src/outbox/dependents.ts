/**
 * What an entry's state means for the entries that depend on it: a create that failed, was
 * cancelled or is in doubt holds its queued dependents `blocked`; one sent or queued again
 * lets them go.
 */
import type { StoredError } from './errors';
import type { OutboxEntry, OutboxStore } from './store';

export function blockedError(cause: OutboxEntry): StoredError {
  const why = cause.lastError ? `: ${cause.lastError.message}` : '';
  return {
    kind: 'blocked',
    message: `depends on ${cause.kind} ${cause.id}, which is ${cause.state}${why}`,
    ...(cause.lastError?.details ? { details: cause.lastError.details } : {}),
  };
}

/** Blocks the queued dependents of `id`, transitively; returns how many. */
export function blockDependents(
  store: OutboxStore,
  id: string,
  cause: OutboxEntry,
  at: number,
): number {
  let n = 0;
  for (const dep of store.dependents(id)) {
    if (dep.state !== 'queued') continue;
    store.setState(dep.id, 'blocked', blockedError(cause), null, at);
    n += 1 + blockDependents(store, dep.id, cause, at);
  }
  return n;
}

/** Blocked dependents of `id` back to the queue, transitively (flush re-blocks any still stuck). */
export function unblockDependents(store: OutboxStore, id: string, at: number): void {
  for (const dep of store.dependents(id)) {
    if (dep.state !== 'blocked') continue;
    store.setState(dep.id, 'queued', null, null, at);
    unblockDependents(store, dep.id, at);
  }
}

export function orderItemsUnknown(order: OutboxEntry): StoredError {
  return {
    kind: 'blocked',
    message: `order ${order.id} was confirmed by hand, so its order item ids are not known here: edit this entry to name the order item ids`,
  };
}

/**
 * Outbox entries as the screens show them: ISO instants, a one-line summary a person reads, the
 * actions the real outbox allows in the entry's state (`can`), counts per state, and what needs
 * attention after a batch (failed and blocked entries, with the service's message or what
 * blocks them).
 */
import {
  LOCAL_PREFIX,
  OUTBOX_STATES,
  type Mirror,
  type OutboxEntry,
  type StoredError,
} from '@eo/sync';
import type { FlushProgress, FlushResult, OutboxCounts, OutboxEntryView } from '../shared/contract';

const isoFromUs = (us: number | null): string | null =>
  us === null ? null : new Date(Math.floor(us / 1000)).toISOString();

/**
 * What `@eo/sync`'s outbox accepts in each state (see packages/sync/src/outbox/outbox.ts): an
 * entry that was already attempted and is queued again may be on the service, so it can be
 * neither edited nor cancelled; retry applies to failed and blocked entries, and to a queued
 * one waiting for its next attempt (it makes it due at once). An `unconfirmed` entry may be on
 * the service: the user confirms it, resends it or cancels it, nothing else.
 */
export function allowedActions(e: Pick<OutboxEntry, 'state' | 'attempts'>): OutboxEntryView['can'] {
  const untouched = e.state === 'queued' && e.attempts === 0;
  const stopped = e.state === 'failed' || e.state === 'blocked';
  const unconfirmed = e.state === 'unconfirmed';
  return {
    edit: untouched || stopped,
    retry: stopped || (e.state === 'queued' && e.attempts > 0),
    cancel: untouched || stopped || unconfirmed,
    confirm: unconfirmed,
    resend: unconfirmed,
  };
}

/** The service's own words: the client's "POST /v0/orders failed with 400 code: " prefix cut. */
export function serviceMessage(error: Pick<StoredError, 'message'>): string {
  return error.message.replace(/^[A-Z]+ \S+ failed with \d{3}(?: [\w.-]+)?: /, '');
}

type Input = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function makeOutboxViews(mirror: Pick<Mirror, 'records' | 'outbox'>) {
  const get = (id: string) => mirror.outbox.get(id);

  /** A field naming another resource: a queued entry's name and state, a mirrored one's name. */
  function refName(value: unknown, what: 'aoi' | 'index'): string {
    const id = str(value) ?? '?';
    if (id.startsWith(LOCAL_PREFIX)) {
      const target = get(id.slice(LOCAL_PREFIX.length).split('#')[0]!);
      if (!target) return id;
      const name = str(target.input['name']) ?? target.id;
      return target.state === 'sent' ? name : `${name} (${target.state})`;
    }
    return mirror.records.nameOf(what, id) || id;
  }

  /** An order item named by a delivery: a queued order's `local:<entry>#<n>` by its name. */
  function orderItemName(value: unknown): string | null {
    const m = /^local:([^#]+)#(\d+)$/.exec(str(value) ?? '');
    const items = m ? get(m[1]!)?.input['order_items'] : undefined;
    const item = Array.isArray(items) ? (items[Number(m![2])] as Input | undefined) : undefined;
    return str(item?.['name']);
  }

  /** "order item “North field”", "2 order items (“A”, “B”)"; a count when a name is unknown. */
  function orderItemsText(ids: readonly unknown[]): string {
    const names = ids.map(orderItemName);
    if (names.some((n) => n === null)) return plural(ids.length, 'order item');
    const quoted = names.slice(0, 3).map((n) => `“${n}”`);
    if (names.length > 3) quoted.push('…');
    return names.length === 1
      ? `order item ${quoted[0]}`
      : `${plural(names.length, 'order item')} (${quoted.join(', ')})`;
  }

  function summary(e: Pick<OutboxEntry, 'kind' | 'input'>): string {
    const input = e.input as Input;
    switch (e.kind) {
      case 'order': {
        const items = Array.isArray(input['order_items']) ? (input['order_items'] as Input[]) : [];
        const names = items.map((i) => str(i['name']) ?? '(unnamed)');
        const shown = names.length > 3 ? [...names.slice(0, 3), '…'] : names;
        return `Order · ${plural(items.length, 'item')}: ${shown.join(', ')}`;
      }
      case 'aoi':
        return `AOI · ${str(input['name']) ?? '(unnamed)'}`;
      case 'index':
        return `Index · ${str(input['name']) ?? '(unnamed)'}`;
      case 'visualization':
        return `Visualization · ${refName(input['index_id'], 'index')} on AOI ${refName(input['aoi_id'], 'aoi')}`;
      case 'delivery': {
        const list = Array.isArray(input['deliveries']) ? (input['deliveries'] as Input[]) : [];
        let records = 0;
        const items: unknown[] = [];
        const paths = new Set<string>();
        for (const d of list) {
          records += Array.isArray(d['catalog_ids']) ? d['catalog_ids'].length : 0;
          if (Array.isArray(d['order_item_ids'])) items.push(...d['order_item_ids']);
          const info = d['cloud_info'] as Input | undefined;
          paths.add(str(info?.['path']) ?? '?');
        }
        const what = [
          records ? plural(records, 'catalog record') : '',
          items.length ? orderItemsText(items) : '',
        ].filter(Boolean);
        const to = paths.size === 1 ? [...paths][0]! : plural(paths.size, 'destination');
        return `Delivery · ${what.join(' and ') || 'nothing'} to ${to}`;
      }
      case 'job':
        return `Job · ${str(input['workflow_id']) ?? '?'} for ${str(input['project_id']) ?? '?'}`;
    }
  }

  function view(e: OutboxEntry): OutboxEntryView {
    return {
      id: e.id,
      seq: e.seq,
      kind: e.kind,
      state: e.state,
      input: e.input,
      dependsOn: e.dependsOn,
      attempts: e.attempts,
      nextAttemptAt: isoFromUs(e.nextAttemptAt),
      createdAt: isoFromUs(e.createdAt)!,
      updatedAt: isoFromUs(e.updatedAt)!,
      sentAt: isoFromUs(e.sentAt),
      lastError: e.lastError
        ? {
            kind: e.lastError.kind,
            ...(e.lastError.status !== undefined ? { status: e.lastError.status } : {}),
            ...(e.lastError.code !== undefined ? { code: e.lastError.code } : {}),
            // Status and code are fields of their own: the screens show them once.
            message: serviceMessage(e.lastError),
            ...(e.lastError.details ? { details: e.lastError.details } : {}),
            ...(e.lastError.inDoubt !== undefined ? { inDoubt: e.lastError.inDoubt } : {}),
            ...(e.lastError.attemptedAt !== undefined
              ? { attemptedAt: isoFromUs(e.lastError.attemptedAt)! }
              : {}),
            ...(e.lastError.candidateId ? { candidateId: e.lastError.candidateId } : {}),
          }
        : null,
      remoteId: e.remoteId,
      response: e.response ?? null,
      summary: summary(e),
      can: allowedActions(e),
    };
  }

  /** Why an entry needs attention, in words: the service's message, or what blocks it. */
  function problemMessage(e: OutboxEntry): string {
    if (e.state === 'blocked') {
      const stuck = e.dependsOn
        .map(get)
        .find(
          (d) =>
            d &&
            (d.state === 'failed' ||
              d.state === 'blocked' ||
              d.state === 'cancelled' ||
              d.state === 'unconfirmed'),
        );
      if (stuck) {
        const why =
          stuck.lastError && stuck.state === 'failed' ? `: ${serviceMessage(stuck.lastError)}` : '';
        return `Waits for ${summary(stuck)}, which is ${stuck.state}${why}`;
      }
    }
    return e.lastError ? serviceMessage(e.lastError) : e.state;
  }

  return {
    view,
    summary,
    counts(counts: Record<string, number>): OutboxCounts {
      return Object.fromEntries(OUTBOX_STATES.map((s) => [s, counts[s] ?? 0])) as OutboxCounts;
    },
    /** A batch's result: its counts, and every entry that needs attention now. */
    result(progress: FlushProgress, attention: readonly OutboxEntry[]): FlushResult {
      return {
        sent: progress.sent,
        failed: progress.failed,
        blocked: progress.blocked,
        unconfirmed: progress.unconfirmed,
        remaining: progress.remaining,
        problems: attention.map((e) => ({
          id: e.id,
          kind: e.kind,
          summary: summary(e),
          message: problemMessage(e),
        })),
      };
    },
  };
}

export type OutboxViews = ReturnType<typeof makeOutboxViews>;

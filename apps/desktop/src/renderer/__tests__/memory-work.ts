/**
 * Test support, part 2 of the in-memory contract (see memory-bridge.ts): mirrored orders, AOIs,
 * indices and what this client created, and an outbox with the real one's rules that matter to
 * the screens: inputs validated by the contract (the domain's request schemas), `local:<id>`
 * references recorded as dependencies and sent first, a failure blocking its dependents,
 * edit / retry / cancel allowed only in the states the real outbox allows. What a flush does
 * with each entry is scripted by the test (`outcome`); by default every entry is created.
 */
import type {
  Aoi,
  Asset,
  Delivery,
  Job,
  Order,
  OrderItem,
  OutboxKind,
  OutboxState,
  SpectralIndex,
  Visualization,
} from '@eo/domain';
import { OUTBOX_STATES } from '@eo/domain';
import { buildOrder } from '@eo/domain/testing';
import {
  ContractError,
  type EventName,
  type EventPayload,
  type FlushProgress,
  type FlushResult,
  type HandoverReceived,
  type IndexMapView,
  type JobEstimate,
  type Lookups,
  type OutboxCreate,
  type OutboxEntryView,
  type ReviewedOrder,
} from '../../shared/contract';
import { EMPTY_LOOKUPS } from '../stores/lookups';

export type FlushOutcome =
  | { ok: true; remoteId?: string; response?: unknown }
  | {
      ok: false;
      status?: number;
      message: string;
      details?: Array<{ path: string; message: string }>;
    }
  /** The service is unreachable: the entry stays queued. */
  | { ok: 'offline' };

export interface MemoryWork {
  orders: Order[];
  orderItems: OrderItem[];
  aois: Aoi[];
  assets: Asset[];
  /** Mirrored index maps of AOIs (`aois.indexMaps` filters them by AOI). */
  indexMaps: Array<IndexMapView & { aoiId: string }>;
  indices: SpectralIndex[];
  visualizations: Visualization[];
  deliveries: Delivery[];
  jobs: Job[];
  readonly outbox: OutboxEntryView[];
  lookups: Lookups;
  /** What a flush does with an entry. Default: created, remote id `r-<seq>`. */
  outcome: (entry: OutboxEntryView) => FlushOutcome;
  /** The dry run's answer. Default: an order built from the items. */
  quote: (input: { order_items: unknown[] }) => Order;
  /** A job's estimate (`jobs.estimate`). Default: 12 credits per workflow, 1 AOI. */
  estimate: (input: { workflowId: string; projectId?: string }) => JobEstimate | null;
  /** How many `created.refresh` reports as updated. */
  refreshed: number;
  /**
   * Orders wait for `outbox.sendOrders` (the backend's default: Settings does not send them
   * automatically). Default false: a flush sends them, as tests written before the review do.
   */
  holdOrders: boolean;
  /** Each queued order's price when it was queued (the backend's price book). */
  composed: Record<string, { total: number; quotedAt: string }>;
  /** The review's quote of one queued order; throw a ContractError for a failed quote. */
  reviewQuote: (entry: OutboxEntryView) => Order;
  /** Where main saved a handover file (Electron; null: the dialog was cancelled). */
  handoverSavedTo?: string | null;
  /** What taking in another laptop's handover file answers. */
  received: HandoverReceived;
}

const LOCAL = /^local:([^#]+)/;

function references(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') {
    const m = LOCAL.exec(value);
    if (m) out.add(m[1]!);
  } else if (Array.isArray(value)) {
    for (const v of value) references(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) references(v, out);
  }
  return out;
}

function summaryOf(kind: OutboxKind, input: Record<string, unknown>): string {
  switch (kind) {
    case 'order': {
      const items = (input['order_items'] as Array<{ name?: string }>) ?? [];
      return `Order · ${items.length} item${items.length === 1 ? '' : 's'}: ${items.map((i) => i.name).join(', ')}`;
    }
    case 'aoi':
      return `AOI · ${String(input['name'])}`;
    case 'index':
      return `Index · ${String(input['name'])}`;
    case 'visualization':
      return `Visualization · ${String(input['index_id'])} on ${String(input['aoi_id'])}`;
    case 'delivery':
      return `Delivery · ${(input['deliveries'] as unknown[]).length} request(s)`;
    case 'job':
      return `Job · ${String(input['workflow_id'])} for ${String(input['project_id'])}`;
  }
}

const T0 = Date.parse('2024-05-17T08:00:00.000Z');

export function createMemoryWork(emit: <E extends EventName>(e: E, p: EventPayload<E>) => void) {
  let seq = 0;
  let clock = T0;
  const now = () => new Date((clock += 1000)).toISOString();

  const work: MemoryWork = {
    orders: [],
    orderItems: [],
    aois: [],
    assets: [],
    indexMaps: [],
    indices: [],
    visualizations: [],
    deliveries: [],
    jobs: [],
    outbox: [],
    lookups: EMPTY_LOOKUPS,
    outcome: (e) => ({ ok: true, remoteId: `r-${e.seq}` }),
    quote: (input) =>
      buildOrder({
        order_items: input.order_items.map((i) => ({ ...(i as object) })) as never,
      }),
    estimate: () => ({ estimatedCost: 12, aoiCount: 1 }),
    refreshed: 0,
    holdOrders: false,
    composed: {},
    reviewQuote: (e) => work.quote(e.input as { order_items: unknown[] }),
    received: { queued: 2, confirmed: 0, kept: 0, orders: 1 },
  };

  const find = (id: string): OutboxEntryView => {
    const e = work.outbox.find((x) => x.id === id);
    if (!e) throw new ContractError('invalid_argument', `no outbox entry ${id}`);
    return e;
  };

  function can(state: OutboxState, attempts: number): OutboxEntryView['can'] {
    const untouched = state === 'queued' && attempts === 0;
    const stopped = state === 'failed' || state === 'blocked';
    const unconfirmed = state === 'unconfirmed';
    return {
      edit: untouched || stopped,
      retry: stopped,
      cancel: untouched || stopped || unconfirmed,
      confirm: unconfirmed,
      resend: unconfirmed,
    };
  }

  function put(e: OutboxEntryView, patch: Partial<OutboxEntryView>): OutboxEntryView {
    const next = { ...e, ...patch, updatedAt: now() };
    next.can = can(next.state, next.attempts);
    work.outbox.splice(work.outbox.indexOf(e), 1, next);
    return next;
  }

  function dependsOn(input: Record<string, unknown>, path: string): string[] {
    const deps = [...references(input, new Set())];
    for (const d of deps) {
      const target = work.outbox.find((x) => x.id === d);
      if (!target || target.state === 'cancelled') {
        throw new ContractError('invalid_argument', `unknown local id ${d}`, {
          issues: [{ path, message: `no queued create with id ${d}` }],
        });
      }
    }
    return deps;
  }

  function counts(): Record<OutboxState, number> {
    const c = Object.fromEntries(OUTBOX_STATES.map((s) => [s, 0])) as Record<OutboxState, number>;
    for (const e of work.outbox) c[e.state]++;
    return c;
  }

  const pending = () => work.outbox.filter((e) => e.state === 'queued').length;

  /** Entries held with a held order (they wait for it), transitively. */
  function heldIds(release: readonly string[]): Set<string> {
    const held = new Set(
      work.holdOrders
        ? work.outbox
            .filter((e) => e.kind === 'order' && e.state === 'queued' && !release.includes(e.id))
            .map((e) => e.id)
        : [],
    );
    for (let grew = true; grew;) {
      grew = false;
      for (const e of work.outbox) {
        if (!held.has(e.id) && e.dependsOn.some((d) => held.has(d))) {
          held.add(e.id);
          grew = true;
        }
      }
    }
    return held;
  }

  function flush(release: readonly string[] = []): FlushResult {
    const held = heldIds(release);
    const progress: FlushProgress = {
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
    };
    for (const original of [...work.outbox].sort((a, b) => a.seq - b.seq)) {
      const e = work.outbox.find((x) => x.id === original.id)!;
      if (e.state !== 'queued' || held.has(e.id)) continue;
      const stuck = e.dependsOn
        .map((d) => work.outbox.find((x) => x.id === d)!)
        .find((d) => d.state !== 'sent');
      if (stuck) {
        put(e, {
          state: 'blocked',
          lastError: { kind: 'blocked', message: `blocked: ${stuck.summary} is ${stuck.state}` },
        });
        progress.blocked++;
        progress.remaining = pending();
        emit('outbox.progress', { ...progress });
        continue;
      }
      const result = work.outcome(e);
      if (result.ok === true) {
        put(e, {
          state: 'sent',
          attempts: e.attempts + 1,
          sentAt: now(),
          remoteId: result.remoteId ?? `r-${e.seq}`,
          response: result.response ?? null,
          lastError: null,
        });
        progress.sent++;
      } else if (result.ok === 'offline') {
        put(e, {
          attempts: e.attempts + 1,
          lastError: { kind: 'network', message: 'connect ECONNREFUSED' },
        });
      } else {
        put(e, {
          state: 'failed',
          attempts: e.attempts + 1,
          lastError: {
            kind: 'api',
            status: result.status ?? 400,
            code: 'validation_failed',
            message: result.message,
            ...(result.details ? { details: result.details } : {}),
          },
        });
        progress.failed++;
      }
      // As the real outbox reports it: entries still queued (not handled yet, or to retry).
      progress.remaining = pending();
      emit('outbox.progress', { ...progress });
    }
    progress.remaining = pending();
    const problems = work.outbox
      .filter((e) => e.state === 'failed' || e.state === 'blocked')
      .map((e) => ({
        id: e.id,
        kind: e.kind,
        summary: e.summary,
        message: e.lastError?.message ?? e.state,
      }));
    const result = { ...progress, problems };
    emit('outbox.finished', result);
    emit('outbox.changed', { pending: pending() });
    return result;
  }

  /** Answers the part-2 methods; `undefined` for methods it does not know. */
  function handle(method: string, input: unknown): unknown {
    switch (method) {
      case 'orders.list': {
        const ids = (input as { ids?: string[] } | undefined)?.ids;
        return ids ? work.orders.filter((o) => ids.includes(o.id)) : work.orders;
      }
      case 'orderItems.list': {
        const ids = (input as { orderIds?: string[] } | undefined)?.orderIds;
        return ids ? work.orderItems.filter((i) => ids.includes(i.order_id)) : work.orderItems;
      }
      case 'orders.quote':
        return work.quote(input as { order_items: unknown[] });
      case 'aois.list':
        return work.aois;
      case 'aois.assets':
        return work.assets.filter((a) => a.aoi_id === (input as { aoiId: string }).aoiId);
      case 'aois.indexMaps':
        return work.indexMaps
          .filter((m) => m.aoiId === (input as { aoiId: string }).aoiId)
          .map(({ aoiId: _, ...m }) => m);
      case 'indices.list':
        return work.indices;
      case 'visualizations.list':
        return work.visualizations;
      case 'deliveries.list':
        return work.deliveries;
      case 'jobs.list':
        return work.jobs;
      case 'jobs.estimate':
        return work.estimate(input as { workflowId: string; projectId?: string });
      case 'created.refresh':
        return { updated: work.refreshed };
      case 'lookups.get':
        return work.lookups;
      case 'outbox.list': {
        const states = (input as { states?: OutboxState[] } | undefined)?.states;
        const entries = states ? work.outbox.filter((e) => states.includes(e.state)) : work.outbox;
        return { entries: [...entries].sort((a, b) => a.seq - b.seq), counts: counts() };
      }
      case 'outbox.enqueue': {
        const { kind, input: body } = input as OutboxCreate & { input: Record<string, unknown> };
        const created = now();
        const entry: OutboxEntryView = {
          id: `e${++seq}-${Math.random().toString(16).slice(2, 10)}`,
          seq,
          kind,
          state: 'queued',
          input: body,
          dependsOn: dependsOn(body, 'input'),
          attempts: 0,
          nextAttemptAt: null,
          createdAt: created,
          updatedAt: created,
          sentAt: null,
          lastError: null,
          remoteId: null,
          response: null,
          summary: summaryOf(kind, body),
          can: can('queued', 0),
        };
        work.outbox.push(entry);
        emit('outbox.changed', { pending: pending() });
        return entry;
      }
      case 'outbox.enqueueAll': {
        // The contract checked every create already; all of them are queued (as the backend).
        const { creates } = input as { creates: OutboxCreate[] };
        return creates.map((c) => handle('outbox.enqueue', c));
      }
      case 'outbox.edit': {
        const { id, input: body } = input as { id: string; input: Record<string, unknown> };
        const e = find(id);
        if (!e.can.edit) throw new ContractError('conflict', `a ${e.state} entry cannot be edited`);
        return put(e, {
          input: body,
          state: 'queued',
          dependsOn: dependsOn(body, 'input'),
          lastError: null,
          summary: summaryOf(e.kind, body),
        });
      }
      case 'outbox.retry': {
        const e = find((input as { id: string }).id);
        if (!e.can.retry)
          throw new ContractError('conflict', `a ${e.state} entry cannot be retried`);
        return put(e, { state: 'queued', lastError: null });
      }
      case 'outbox.cancel': {
        const e = find((input as { id: string }).id);
        if (!e.can.cancel)
          throw new ContractError('conflict', `a ${e.state} entry cannot be cancelled`);
        const next = put(e, { state: 'cancelled' });
        emit('outbox.changed', { pending: pending() });
        return next;
      }
      case 'outbox.confirm': {
        const { id, remoteId } = input as { id: string; remoteId?: string };
        const e = find(id);
        const given = remoteId ?? e.lastError?.candidateId;
        if (!e.can.confirm || !given)
          throw new ContractError('conflict', `a ${e.state} entry cannot be confirmed`);
        const next = put(e, { state: 'sent', remoteId: given, lastError: null });
        emit('outbox.changed', { pending: pending() });
        return next;
      }
      case 'outbox.resend': {
        const e = find((input as { id: string }).id);
        if (!e.can.resend)
          throw new ContractError('conflict', `a ${e.state} entry cannot be resent`);
        const next = put(e, { state: 'queued', lastError: null });
        emit('outbox.changed', { pending: pending() });
        return next;
      }
      case 'outbox.flush':
        return flush();
      case 'outbox.reviewOrders': {
        const queued = work.outbox.filter((e) => e.state === 'queued');
        return {
          quotedAt: now(),
          orders: queued
            .filter((e) => e.kind === 'order')
            .sort((a, b) => a.seq - b.seq)
            .map((e) => {
              let quote: Order | null = null;
              let problem: ReviewedOrder['problem'] = null;
              try {
                quote = work.reviewQuote(e);
              } catch (err) {
                if (!(err instanceof ContractError)) throw err;
                const issues = err.details?.issues;
                problem = { code: err.code, message: err.message, ...(issues ? { issues } : {}) };
              }
              return {
                id: e.id,
                updatedAt: e.updatedAt,
                summary: e.summary,
                names: ((e.input['order_items'] as Array<{ name?: string }>) ?? []).map(
                  (i) => i.name ?? '(unnamed)',
                ),
                composed: work.composed[e.id] ?? null,
                quote,
                problem,
                dependents: queued.filter((d) => d.dependsOn.includes(e.id)).length,
              };
            }),
        };
      }
      // Handed-over work (the backend's: src/backend/__tests__/outbox-handover.spec.ts).
      case 'outbox.handoverPlan': {
        const queued = work.outbox.filter((e) => e.state === 'queued');
        return {
          entries: queued.map(({ id, kind, summary }) => ({ id, kind, summary })),
          orders: queued.filter((e) => e.kind === 'order').length,
          receipts: 0,
          bytes: 900 * queued.length,
        };
      }
      case 'outbox.handOver':
      case 'outbox.takeBack': {
        const [from, to] =
          method === 'outbox.handOver' ? ['queued', 'handed_over'] : ['handed_over', 'queued'];
        const entries = (input as { ids: string[] }).ids.map(find);
        const moved = entries.find((e) => e.state !== from);
        if (moved) throw new ContractError('conflict', `${moved.summary} is ${moved.state}`);
        const next = entries.map((e) => put(e, { state: to as OutboxState }));
        emit('outbox.changed', { pending: pending() });
        if (method === 'outbox.takeBack') return next;
        const saved = work.handoverSavedTo;
        return {
          fileName: `eo-handover-${next.length}-creates-20261129-0400.json`,
          mediaType: 'application/json',
          features: next.length,
          bytes: 2,
          base64: saved === undefined ? btoa('{}') : '',
          handedOver: next.map((e) => e.id),
          receipts: 0,
          ...(saved !== undefined ? { savedTo: saved } : {}),
        };
      }
      case 'outbox.receiveHandover':
        return work.received;
      case 'outbox.sendOrders': {
        const { orders } = input as {
          orders: Array<{ id: string; updatedAt: string; total: number }>;
        };
        for (const o of orders) {
          const e = find(o.id);
          if (e.state !== 'queued' || e.updatedAt !== o.updatedAt)
            throw new ContractError('conflict', `${e.summary} changed since the review`);
          // Quoted again, as the backend does: sent only at the price confirmed.
          if (work.reviewQuote(e).total_amount !== o.total)
            throw new ContractError('conflict', `The price of ${e.summary} changed`);
        }
        return flush(orders.map((o) => o.id));
      }
      default:
        return undefined;
    }
  }

  return { work, handle };
}

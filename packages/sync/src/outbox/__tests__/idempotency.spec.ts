/**
 * Creates without duplicates, whether or not the service honours Idempotency-Key.
 *
 * The real reference service runs on 127.0.0.1; a fault proxy in front of it loses answers
 * after the service committed, answers 502 (before or after forwarding), never answers
 * (timeouts) or resets, and with `stripIdempotencyKey` plays a service that ignores the key and
 * never says it honours it (the provider's real service). What exists on the service is counted
 * in the service's own database, so "exactly one create per entry" is checked where it matters.
 */
import { createEoClient, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { startFaultProxy, type Fault } from '../../__tests__/fault-proxy';
import type { OutboxKind } from '../kinds';
import { createOutbox, type Outbox } from '../outbox';
import type { OutboxEntry } from '../store';
import {
  aoiInput,
  indexInput,
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
let catalogId: string;
beforeAll(async () => {
  svc = await startService();
  const { catalogs } = await testClient(svc.url, svc.key).searchCatalogs({ limit: 1 });
  catalogId = catalogs[0]!.id;
});
afterAll(async () => svc.close());

const TABLES = {
  order: 'orders',
  aoi: 'aois',
  index: 'indices',
  visualization: 'visualizations',
  job: 'jobs',
  delivery: 'deliveries',
} as const satisfies Record<OutboxKind, string>;

/** Rows of each kind in the service's database. */
function onService(): Record<OutboxKind, number> {
  const db = svc.server.app.ctx.sqlite;
  return Object.fromEntries(
    Object.entries(TABLES).map(([kind, table]) => [
      kind,
      db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).get()!.n,
    ]),
  ) as Record<OutboxKind, number>;
}

function delta(before: Record<OutboxKind, number>): Record<OutboxKind, number> {
  const now = onService();
  return Object.fromEntries(
    Object.keys(TABLES).map((k) => [k, now[k as OutboxKind] - before[k as OutboxKind]]),
  ) as Record<OutboxKind, number>;
}

/** The id of the newest row of a kind that records a creation order (`seq`). */
function newestId(table: 'visualizations' | 'jobs' | 'deliveries'): string {
  return svc.server.app.ctx.sqlite
    .prepare<[], { id: string }>(`SELECT id FROM ${table} ORDER BY seq DESC LIMIT 1`)
    .get()!.id;
}

/** Short timeouts (a `hang` costs 400 ms) and quick client retries. */
function quickClient(url: string, extra: { idempotency?: 'ignored' } = {}): EoClient {
  return createEoClient({
    baseUrl: url,
    apiKey: svc.key,
    timeoutMs: 400,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...extra,
  });
}

/** One planned fault per create (POST other than the read-only searches), then `pass`. */
function perCreate(plan: Fault[], onCreate?: (n: number) => void) {
  let n = 0;
  return (req: { method: string; url: string }): Fault => {
    if (req.method !== 'POST' || req.url.includes('/search')) return 'pass';
    onCreate?.(n);
    return plan[n++] ?? 'pass';
  };
}

async function enqueueEveryKind(outbox: Outbox, tag: string) {
  const direct = testClient(svc.url, svc.key);
  const o1 = outbox.enqueue('order', orderInput(`${tag} O1`));
  const o2 = outbox.enqueue('order', orderInput(`${tag} O2`));
  const o3 = outbox.enqueue('order', orderInput(`${tag} O3`));
  const aoi = outbox.enqueue('aoi', await aoiInput(direct, `${tag} AOI`));
  const vis = outbox.enqueue('visualization', {
    aoi_id: `local:${aoi.id}`,
    index_id: 'idx-ndvi-aurora',
    src_asset_ids: [`local:${aoi.id}#scenes`],
  });
  const index = outbox.enqueue('index', indexInput(`${tag} index`));
  const job = () =>
    outbox.enqueue('job', { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' });
  const [j1, j2, j3] = [job(), job(), job()];
  const delivery = outbox.enqueue('delivery', {
    deliveries: [
      { catalog_ids: [catalogId], cloud_info: { config: 's3-default', path: `field/${tag}` } },
    ],
  });
  return { o1, o2, o3, aoi, vis, index, j1, j2, j3, delivery };
}

/** What `enqueueEveryKind` queues: what must exist on the service, once each, in the end. */
const ONE_EACH: Record<OutboxKind, number> = {
  order: 3,
  aoi: 1,
  visualization: 1,
  index: 1,
  job: 3,
  delivery: 1,
};

/** What each create meets on its first attempt: whether it reached the service, and how. */
const PLAN: Array<{ fault: Fault; reached: boolean }> = [
  { fault: 'lose', reached: true }, // O1: committed, answer lost
  { fault: { status: 502, afterForwarding: true }, reached: true }, // O2: a gateway gave up
  { fault: 'hang', reached: false }, // O3: timed out, never forwarded
  { fault: 'pass', reached: true }, // AOI
  { fault: 'lose', reached: true }, // visualization
  { fault: { status: 502 }, reached: false }, // index: the gateway's own 502
  { fault: 'lose', reached: true }, // J1
  { fault: { status: 502, afterForwarding: true }, reached: true }, // J2
  { fault: 'reset', reached: false }, // J3
  { fault: 'lose', reached: true }, // delivery
];

/** A proxy that plays PLAN on the creates, and counts them. */
async function planned(options: { stripIdempotencyKey?: boolean }) {
  let posts = 0;
  const choose = perCreate(
    PLAN.map((p) => p.fault),
    () => posts++,
  );
  return { proxy: await startFaultProxy(svc.url, choose, options), posts: () => posts };
}

describe('a service that ignores Idempotency-Key (and never says it honours it)', () => {
  it('through lost answers, timeouts, 502s and resets: one create per entry; what cannot be looked up waits unconfirmed', async () => {
    const { proxy, posts } = await planned({ stripIdempotencyKey: true });
    const local = tempDatabase();
    try {
      const client = quickClient(proxy.url);
      const outbox = createOutbox({ db: local.sqlite, client, retryBaseMs: 0 });
      const e = await enqueueEveryKind(outbox, 'ignoring');
      const before = onService();
      const enqueuedAt = e.o1.createdAt;

      const first = await outbox.flush();
      expect(client.capabilities.idempotencyKey).toBe('unknown');
      // Nothing was sent twice: one POST per entry.
      expect(posts()).toBe(PLAN.length);
      // Orders whose answer was lost are found by the lookup; an order that never arrived is
      // not found, and is not resent on a guess either.
      const state = (x: OutboxEntry) => outbox.get(x.id)!.state;
      expect([e.o1, e.o2, e.o3, e.aoi].map(state)).toEqual(['sent', 'sent', 'unconfirmed', 'sent']);
      expect([e.vis, e.index, e.j1, e.j2, e.j3, e.delivery].map(state)).toEqual(
        Array(6).fill('unconfirmed'),
      );
      expect(first).toEqual({ sent: 3, failed: 0, blocked: 0, unconfirmed: 7, remaining: 0 });
      expect(delta(before)).toEqual({
        order: 2,
        aoi: 1,
        visualization: 1,
        index: 0,
        job: 2,
        delivery: 1,
      });
      // What the user is shown: what was sent (the input), when, and why it is in doubt.
      const j1 = outbox.get(e.j1.id)!;
      expect(j1.input).toEqual({ workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' });
      expect(j1.lastError).toMatchObject({ kind: 'network', inDoubt: true });
      expect(j1.lastError!.attemptedAt).toBeGreaterThanOrEqual(enqueuedAt);
      expect(j1.lastError!.message).toMatch(/may already be on the service.*cannot list jobs/);
      expect(outbox.get(e.o3.id)!.lastError).toMatchObject({ kind: 'timeout', inDoubt: true });
      expect(outbox.get(e.o3.id)!.lastError!.message).toMatch(/no matching order/);
      expect(outbox.get(e.j2.id)!.lastError).toMatchObject({ status: 502, inDoubt: true });
      // Later flushes leave them alone: they wait for the user.
      expect(await outbox.flush()).toMatchObject({ sent: 0, unconfirmed: 0, remaining: 0 });
      expect(posts()).toBe(PLAN.length);
      expect(() => outbox.retry(e.j1.id)).toThrow(/confirm it, resend it, or cancel it/);

      // The user checks the service: what arrived is confirmed with its id, the rest resent.
      const ids = { visualization: '', job: [] as string[], delivery: '' };
      const db = svc.server.app.ctx.sqlite;
      ids.visualization = newestId('visualizations');
      ids.delivery = newestId('deliveries');
      ids.job = db
        .prepare<[], { id: string }>('SELECT id FROM jobs ORDER BY seq DESC LIMIT 2')
        .all()
        .map((r) => r.id)
        .reverse();
      outbox.confirm(e.vis.id, ids.visualization);
      outbox.confirm(e.j1.id, ids.job[0]);
      outbox.confirm(e.j2.id, ids.job[1]);
      outbox.confirm(e.delivery.id, ids.delivery);
      for (const x of [e.o3, e.index, e.j3]) expect(outbox.resend(x.id).state).toBe('queued');
      const last = await outbox.flush();
      expect(last).toEqual({ sent: 3, failed: 0, blocked: 0, unconfirmed: 0, remaining: 0 });
      expect(outbox.counts()).toMatchObject({ sent: 10, unconfirmed: 0, queued: 0 });

      // Exactly one resource per entry on the service, and the outbox knows each one's id.
      expect(delta(before)).toEqual(ONE_EACH);
      expect(outbox.get(e.j3.id)!.remoteId).toBe(newestId('jobs'));
      expect(outbox.get(e.vis.id)!.remoteId).toBe(ids.visualization);
      for (const x of Object.values(e)) expect(outbox.get(x.id)!.remoteId).toBeTruthy();
      expect(proxy.counts).toMatchObject({ lose: 4, hang: 1, reset: 1, status: 3 });
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it('a crash while sending: an order is found by the lookup, a job waits unconfirmed; neither is sent twice', async () => {
    let crash: (() => void) | undefined;
    let posts = 0;
    const proxy = await startFaultProxy(
      svc.url,
      perCreate([], () => {
        posts++;
        crash?.(); // the process dies while this request is in flight; the service commits it
      }),
      { stripIdempotencyKey: true },
    );
    const local = tempDatabase();
    try {
      const before = onService();
      let db = local.sqlite;
      let outbox = createOutbox({ db, client: quickClient(proxy.url), retryBaseMs: 0 });
      const order = outbox.enqueue('order', orderInput('crash order'));
      const enqueueJob = () =>
        outbox.enqueue('job', { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' });
      let job: OutboxEntry | undefined;
      for (const entry of [order, undefined]) {
        const pending = entry ?? (job = enqueueJob());
        crash = () => {
          crash = undefined;
          db.close();
        };
        await expect(outbox.flush()).rejects.toThrow(/not open/);
        // A new process: a new database handle and a client that knows nothing yet.
        db = openMirrorDatabase(local.file).sqlite;
        outbox = createOutbox({ db, client: quickClient(proxy.url), retryBaseMs: 0 });
        expect(outbox.get(pending.id)!.state).toBe('sending');
        await outbox.flush();
      }
      if (!job) throw new Error('the job was never queued');
      expect(outbox.get(order.id)).toMatchObject({ state: 'sent', attempts: 1 });
      expect(outbox.get(order.id)!.remoteId).toMatch(/^ord/);
      const stuck = outbox.get(job.id)!;
      expect(stuck.state).toBe('unconfirmed');
      expect(stuck.lastError).toMatchObject({ kind: 'interrupted', inDoubt: true });
      expect(stuck.lastError!.attemptedAt).toBeGreaterThan(0);
      expect(posts).toBe(2);
      expect(delta(before)).toMatchObject({ order: 1, job: 1 });
      outbox.confirm(job.id, newestId('jobs'));
      expect(outbox.counts()).toMatchObject({ sent: 2, unconfirmed: 0 });
      db.close();
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it("idempotency: 'ignored' holds even against our service: a lost job waits unconfirmed, sent once, without a key", async () => {
    const keys: Array<string | undefined> = [];
    const proxy = await startFaultProxy(svc.url, perCreate(['lose']));
    const local = tempDatabase();
    try {
      const client = createEoClient({
        baseUrl: proxy.url,
        apiKey: svc.key,
        idempotency: 'ignored',
        onRequest: (r) => {
          if (r.method === 'POST') keys.push(r.headers['idempotency-key']);
        },
      });
      const outbox = createOutbox({ db: local.sqlite, client, idempotency: 'ignored' });
      const before = onService();
      const job = outbox.enqueue('job', {
        workflow_id: 'wf-ndvi-timeseries',
        project_id: 'prj-demo-crops',
      });
      expect(await outbox.flush()).toMatchObject({ sent: 0, unconfirmed: 1 });
      expect(outbox.get(job.id)!.state).toBe('unconfirmed');
      expect(keys).toEqual([undefined]);
      expect(delta(before).job).toBe(1);
    } finally {
      local.remove();
      await proxy.close();
    }
  });
});

describe('our reference service (it says it honours the key)', () => {
  it('the same faults: each entry resent with its own key until sent, exactly once on the service', async () => {
    const { proxy, posts } = await planned({});
    const local = tempDatabase();
    try {
      // A client that has not heard from the service yet: the outbox asks it with one read.
      const client = quickClient(proxy.url);
      const outbox = createOutbox({ db: local.sqlite, client, retryBaseMs: 0 });
      const e = await enqueueEveryKind(outbox, 'honoured');
      const before = onService();
      for (let i = 0; i < 5 && outbox.counts().sent < 10; i++) await outbox.flush();
      expect(client.capabilities.idempotencyKey).toBe('honoured');
      expect(outbox.counts()).toMatchObject({ sent: 10, unconfirmed: 0, queued: 0, failed: 0 });
      expect(delta(before)).toEqual(ONE_EACH);
      // Lost answers were resent (same key) and replayed, not created again: by the outbox
      // before the service had said it honours the key, by the client's own retries after.
      expect(outbox.get(e.o1.id)!.attempts).toBeGreaterThan(1);
      expect(posts()).toBeGreaterThan(PLAN.length);
      expect(outbox.get(e.j1.id)!.remoteId).not.toBe(outbox.get(e.j2.id)!.remoteId);
    } finally {
      local.remove();
      await proxy.close();
    }
  });
});

describe('a 2xx create whose body is unusable', () => {
  /** A fetch that passes requests to the real service and mangles some create answers. */
  function mangling(mangle: (url: string, json: Record<string, unknown>) => string | undefined) {
    let posts = 0;
    const fetch = async (url: string, init: RequestInit) => {
      const res = await globalThis.fetch(url, init);
      if (init.method !== 'POST' || url.includes('/search')) return res;
      posts++;
      const text = await res.text();
      const changed = mangle(url, JSON.parse(text) as Record<string, unknown>);
      return new Response(changed ?? text, { status: res.status, headers: res.headers });
    };
    return { fetch, posts: () => posts };
  }

  it('is never failed nor resent blindly: found by the lookup, or unconfirmed with the answer kept', async () => {
    const wire = mangling((url, json) => {
      const path = new URL(url).pathname;
      if (path === '/v0/orders') return JSON.stringify({ ...json, id: null });
      if (path === '/v0/workflows/wf-cloud-mask/jobs') return 'Created';
      // The id under another name: offered to the user as the candidate.
      if (path.endsWith('/jobs')) return JSON.stringify({ job_id: json.id, status: json.status });
      return undefined;
    });
    const local = tempDatabase();
    try {
      const client = createEoClient({ baseUrl: svc.url, apiKey: svc.key, fetch: wire.fetch });
      const outbox = createOutbox({ db: local.sqlite, client });
      const before = onService();
      const order = outbox.enqueue('order', orderInput('null id order'));
      const text = outbox.enqueue('job', {
        workflow_id: 'wf-cloud-mask',
        project_id: 'prj-demo-crops',
      });
      const renamed = outbox.enqueue('job', {
        workflow_id: 'wf-ndvi-timeseries',
        project_id: 'prj-demo-crops',
      });
      expect(await outbox.flush()).toEqual({
        sent: 1,
        failed: 0,
        blocked: 0,
        unconfirmed: 2,
        remaining: 0,
      });
      await outbox.flush();
      expect(wire.posts()).toBe(3);
      expect(delta(before)).toMatchObject({ order: 1, job: 2 });
      // The order (its id null) was looked for and found under its real id.
      expect(outbox.get(order.id)!.remoteId).toMatch(/^ord/);
      const kept = outbox.get(text.id)!;
      expect(kept).toMatchObject({ state: 'unconfirmed', response: 'Created' });
      expect(kept.lastError).toMatchObject({ kind: 'response', status: 201, inDoubt: true });
      expect(() => outbox.confirm(text.id)).toThrow(/give the id/);
      const offered = outbox.get(renamed.id)!;
      const real = newestId('jobs');
      expect(offered.lastError?.candidateId).toBe(real);
      expect(offered.response).toEqual({ job_id: real, status: expect.any(String) });
      // "It was created": the user accepts the candidate.
      expect(outbox.confirm(renamed.id)).toMatchObject({ state: 'sent', remoteId: real });
    } finally {
      local.remove();
    }
  });

  it('an empty deliveries answer names nothing created: unconfirmed with the answer kept, never sent', async () => {
    const wire = mangling((url) =>
      new URL(url).pathname === '/v0/catalogs/deliveries'
        ? JSON.stringify({ deliveries: [] })
        : undefined,
    );
    const local = tempDatabase();
    try {
      const client = createEoClient({ baseUrl: svc.url, apiKey: svc.key, fetch: wire.fetch });
      const outbox = createOutbox({ db: local.sqlite, client });
      const delivery = outbox.enqueue('delivery', {
        deliveries: [
          { catalog_ids: [catalogId], cloud_info: { config: 's3-default', path: 'field/empty' } },
        ],
      });
      expect(await outbox.flush()).toMatchObject({ sent: 0, unconfirmed: 1, remaining: 0 });
      await outbox.flush();
      expect(wire.posts()).toBe(1);
      expect(outbox.get(delivery.id)).toMatchObject({
        state: 'unconfirmed',
        remoteId: null,
        response: { deliveries: [] },
        lastError: { kind: 'response', inDoubt: true },
      });
    } finally {
      local.remove();
    }
  });
});

describe('what the user can do with an unconfirmed entry', () => {
  it('dependents wait blocked; resend and confirm release them; cancel; retry and edit are refused', async () => {
    const proxy = await startFaultProxy(svc.url, perCreate(['hang', 'hang', 'lose']), {
      stripIdempotencyKey: true,
    });
    const local = tempDatabase();
    try {
      const outbox = createOutbox({ db: local.sqlite, client: quickClient(proxy.url) });
      const aoi = outbox.enqueue('aoi', await aoiInput(testClient(svc.url, svc.key), 'User AOI'));
      const vis = outbox.enqueue('visualization', {
        aoi_id: `local:${aoi.id}`,
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [`local:${aoi.id}#scenes`],
      });
      const order = outbox.enqueue('order', orderInput('user decides'));
      const delivery = outbox.enqueue('delivery', {
        deliveries: [
          {
            order_item_ids: [`local:${order.id}#0`],
            cloud_info: { config: 's3-default', path: 'field/user' },
          },
        ],
      });
      const job = outbox.enqueue('job', {
        workflow_id: 'wf-ndvi-timeseries',
        project_id: 'prj-demo-crops',
      });
      expect(await outbox.flush()).toEqual({
        sent: 0,
        failed: 0,
        blocked: 2,
        unconfirmed: 3,
        remaining: 0,
      });
      expect(outbox.get(vis.id)!.lastError!.message).toMatch(/which is unconfirmed/);
      expect(() => outbox.retry(aoi.id)).toThrow(/may already be on the service/);
      expect(() => outbox.edit(aoi.id, aoi.input)).toThrow(/cannot be edited/);
      expect(() => outbox.resend(vis.id)).toThrow(/only an unconfirmed entry/);

      // "Send again" (the user saw it is not there): the AOI and its visualization go out.
      expect(outbox.resend(aoi.id)).toMatchObject({ state: 'queued', lastError: null });
      expect(outbox.get(vis.id)!.state).toBe('queued');
      expect(await outbox.flush()).toMatchObject({ sent: 2, unconfirmed: 0 });
      expect(outbox.get(vis.id)!.state).toBe('sent');

      // "It was created", given by id: an order confirmed by hand has no items known here, so
      // its delivery stays blocked and says what to do.
      expect(outbox.confirm(order.id, ' ord-by-hand ')).toMatchObject({
        state: 'sent',
        remoteId: 'ord-by-hand',
      });
      const held = outbox.get(delivery.id)!;
      expect(held.state).toBe('blocked');
      expect(held.lastError!.message).toMatch(/order item ids/);
      expect(outbox.cancel(delivery.id).state).toBe('cancelled');
      // Cancel: the user decided the lost job is not wanted.
      expect(outbox.cancel(job.id).state).toBe('cancelled');
      expect(outbox.counts()).toMatchObject({ sent: 3, cancelled: 2, unconfirmed: 0 });
    } finally {
      local.remove();
      await proxy.close();
    }
  });
});

/**
 * `openMirror`: the one entry point to the mirror database (real service, real SQLite file).
 * The client is given per operation: the mirror and its outbox outlive a connection.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EoClient } from '@eo/api-client';
import { CatalogSearchRequest } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { SyncBusyError } from '../../pull/errors';
import { openMirror, type Mirror } from '../mirror';
import { footprintIds } from '../../search/footprints';

let svc: TestService;
let client: EoClient;
let mirror: Mirror;
let dir: string;
beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
  const tmp = tempDatabase(); // a fresh folder; the mirror gets its own file there
  dir = tmp.dir;
  tmp.close();
  mirror = openMirror(path.join(dir, 'mirror.sqlite'));
});
afterAll(async () => {
  mirror.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await svc.close();
});

const job = { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' };

describe('openMirror', () => {
  it('queues with no client, flushes through the client of each flush, and reports what it wrote', async () => {
    // What is queued suggests values to the forms until it is given up on.
    const draft = mirror.outbox.enqueue('job', { ...job, project_id: 'prj-queued-only' });
    expect(mirror.lookups().projectIds).toEqual(['prj-queued-only']);
    mirror.outbox.cancel(draft.id);
    expect(mirror.lookups().projectIds).toEqual([]);
    const first = mirror.outbox.enqueue('order', orderInput('Through the first connection'));
    const kinds: string[] = [];
    expect(await mirror.flush(client, { onCreated: (k) => kinds.push(k) })).toMatchObject({
      sent: 1,
    });
    expect(kinds).toEqual(['order']);
    // A new connection (another client object) sends what was queued after the first one.
    const second = mirror.outbox.enqueue('job', job);
    expect(await mirror.flush(testClient(svc.url, svc.key))).toMatchObject({ sent: 1 });
    expect(mirror.outbox.get(first.id)!.state).toBe('sent');
    expect(mirror.outbox.get(second.id)!.state).toBe('sent');
    expect(mirror.records.orders<{ id: string }>().map((o) => o.id)).toEqual([
      mirror.outbox.get(first.id)!.remoteId,
    ]);
    expect(mirror.records.jobs().map((j) => j['id'])).toEqual([
      mirror.outbox.get(second.id)!.remoteId,
    ]);
    expect(mirror.lookups().workflowIds).toEqual(['wf-ndvi-timeseries']);
    expect('flush' in mirror.outbox).toBe(false);
  });

  it('one flush at a time: the same client shares it, another client runs after it', async () => {
    mirror.outbox.enqueue('job', job);
    const other = testClient(svc.url, svc.key);
    const first = mirror.flush(client);
    const same = mirror.flush(client);
    const next = mirror.flush(other);
    expect(same).toBe(first);
    expect(next).not.toBe(first);
    expect(await first).toMatchObject({ sent: 1 });
    // It started once the first had stopped: nothing was left to send.
    expect(await next).toMatchObject({ sent: 0, remaining: 0 });
  });

  it('syncs through a client, then searches, draws footprints and reads records offline', async () => {
    expect(mirror.status()).toEqual([]);
    const report = await mirror.sync(client);
    expect(report.resources.map((r) => r.resource).sort()).toEqual(
      ['aois', 'assets', 'catalogs', 'indices', 'orderItems', 'orders'].sort(),
    );
    expect(mirror.status().every((s) => s.lastCompleteAtUs !== null)).toBe(true);
    const counts = mirror.counts();
    expect(counts.catalogs).toBeGreaterThan(0);
    expect(counts.orders).toBe(mirror.records.orders().length);

    const req = CatalogSearchRequest.parse({ limit: 5 });
    const page = mirror.catalog.search(req);
    expect(page.pagination.total).toBe(counts.catalogs);
    const all = mirror.catalog.footprints(req);
    // Every match (paging ignored), each with a ring of at least 3 points, all finite.
    const ids = footprintIds(all);
    expect(ids.length).toBe(counts.catalogs);
    expect(all.offsets.length).toBe(ids.length + 1);
    expect(all.offsets[ids.length]! * 2).toBe(all.coords.length);
    for (let i = 0; i < ids.length; i++) {
      expect(all.offsets[i + 1]! - all.offsets[i]!).toBeGreaterThanOrEqual(3);
    }
    expect(all.coords.every(Number.isFinite)).toBe(true);
    const id = page.catalogs[0]!.id;
    expect(mirror.catalog.get(id)).toEqual(page.catalogs[0]);
    expect(mirror.catalog.get('no-such-record')).toBeNull();

    const index = mirror.records.indices<{ id: string; name: string }>()[0]!;
    expect(mirror.records.nameOf('index', index.id)).toBe(index.name);
    expect(mirror.records.nameOf('aoi', 'no-such-aoi')).toBeNull();
    expect(mirror.records.nameOf('index', 'no-such-index')).toBeNull();
  });

  it('clear empties what was pulled, forgets cached footprints, keeps the outbox and created records', async () => {
    const req = CatalogSearchRequest.parse({});
    expect(footprintIds(mirror.catalog.footprints(req)).length).toBeGreaterThan(0); // cached rings
    const outboxBefore = mirror.outbox.list().length;
    mirror.clear();
    expect(Object.values(mirror.counts())).toEqual([0, 0, 0, 0, 0, 0]);
    expect(mirror.status()).toEqual([]);
    const after = mirror.catalog.footprints(req);
    expect([footprintIds(after), [...after.offsets], after.coords.length]).toEqual([[], [0], 0]);
    expect(mirror.outbox.list()).toHaveLength(outboxBefore);
    expect(mirror.records.jobs()).toHaveLength(2);
  });

  it('refuses to clear while a sync runs', async () => {
    const controller = new AbortController();
    const running = mirror.sync(client, { signal: controller.signal });
    expect(mirror.syncing).toBe(true);
    expect(() => mirror.clear()).toThrow(SyncBusyError);
    controller.abort();
    await running.catch(() => undefined);
    expect(mirror.syncing).toBe(false);
  });
});

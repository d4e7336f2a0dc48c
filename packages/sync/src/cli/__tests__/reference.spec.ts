/**
 * The reference lists through the CLI, against the real service in-process: `eo sync` mirrors
 * them as the desktop's `mirror.sync()` does (the engine reads them), `eo status` counts them,
 * `eo outbox add` warns about an id they do not know. Behind a proxy answering 404 for the
 * reads (a service without them) the sync still completes and says the lists are unavailable.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import { tempDir } from '../../db/__tests__/temp';
import { openMirror } from '../../mirror/mirror';
import { RESOURCES } from '../../pull/engine';
import { orderInput } from '../../outbox/__tests__/service';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

const REFERENCE_PATH = /^\/v0\/(projects|bandsets|satellites|workflows|stores)(\?|$)/;
const LISTED = { project: 2, bandset: 4, satellite: 3, workflow: 3, store: 3 };

let service: TestService;
let without: FaultProxy;
const tmp = tempDir('cli-reference');
let n = 0;
const freshDb = () => path.join(tmp.dir, `mirror-${n++}.db`);

beforeAll(async () => {
  service = await startService();
  without = await startFaultProxy(service.url, (req) =>
    req.method === 'GET' && REFERENCE_PATH.test(req.url) ? { status: 404 } : 'pass',
  );
});
afterAll(async () => {
  await without.close();
  await service.close();
  tmp.remove();
});

const env = (url: string, db: string) => ({ EO_URL: url, EO_API_KEY: service.key, EO_DB: db });

type SyncJson = {
  resources: Array<{ resource: string; state: string }>;
  reference: { read: object; absent: string[]; failed: unknown[] };
};

/** A mirror synced from the service with its lists (catalogs left out: not what this is about). */
async function syncedDb(): Promise<string> {
  const db = freshDb();
  const r = await eo(['sync', '--resources', 'orders,order-items,indices'], {
    env: env(service.url, db),
  });
  expect(r.code, r.stderr).toBe(0);
  return db;
}

describe('eo sync reads the reference lists', () => {
  it('mirrors them as the desktop does: counts in the report and in eo status, names for lookups', async () => {
    const db = freshDb();
    const r = await eo(['sync', '--resources', 'indices'], { env: env(service.url, db) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as SyncJson).reference).toEqual({
      read: LISTED,
      absent: [],
      failed: [],
    });

    const status = await eo(['status', '--format', 'json'], { env: { EO_DB: db } });
    expect((JSON.parse(status.stdout) as { reference: object }).reference).toEqual(LISTED);
    const table = await eo(['status', '--format', 'table'], { env: { EO_DB: db } });
    expect(table.stdout).toContain(
      'reference lists: 2 projects, 4 bandsets, 3 satellites, 3 workflows, 3 stores\n',
    );

    // The same rows the desktop's forms read.
    const mirror = openMirror(db);
    try {
      expect(mirror.lookups().projects).toEqual([
        { id: 'prj-demo-crops', name: 'Crop monitoring' },
        { id: 'prj-demo-floods', name: 'Flood response' },
      ]);
    } finally {
      mirror.close();
    }
  });

  it('a table sync says what it read', async () => {
    const db = freshDb();
    const r = await eo(['sync', '--resources', 'indices', '--format', 'table'], {
      env: env(service.url, db),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'reference lists: 2 projects, 4 bandsets, 3 satellites, 3 workflows, 3 stores',
    );
  });

  it('a service without the reads (404): the sync completes and says the lists are unavailable', async () => {
    const db = freshDb();
    const r = await eo(['sync'], { env: env(without.url, db) });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as SyncJson;
    expect(report.resources.map((s) => [s.resource, s.state])).toEqual(
      RESOURCES.map((name) => [name, 'complete']),
    );
    expect(report.reference).toEqual({
      read: {},
      absent: ['project', 'bandset', 'satellite', 'workflow', 'store'],
      failed: [],
    });
    expect(r.stderr).toBe(
      'eo: reference lists unavailable on this service (projects, bandsets, satellites, workflows, stores: not offered, 404): the records synced; eo outbox add cannot check those ids\n',
    );
    const table = await eo(['status', '--format', 'table'], { env: { EO_DB: db } });
    expect(table.stdout).toContain('reference lists: none mirrored');
  });
});

describe('eo outbox add with an id the mirror does not know', () => {
  const add = (db: string, kind: string, input: unknown) =>
    eo(['outbox', 'add', kind, '--json', JSON.stringify(input)], { env: { EO_DB: db } });

  it('queues it anyway, warning with the nearest known ids and names', async () => {
    const db = await syncedDb();
    const r = await add(db, 'job', {
      workflow_id: 'wf-ndvi-timeserie',
      project_id: 'prj-demo-crop',
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'job', state: 'queued' });
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^eo: warning: project_id: project "prj-demo-crop" is not in the mirrored lists; nearest known: prj-demo-crops \(Crop monitoring\), prj-demo-floods \(Flood response\) \(queued anyway/,
    );
    expect(lines[1]).toMatch(
      /^eo: warning: workflow_id: workflow "wf-ndvi-timeserie" is not in the mirrored lists; nearest known: wf-ndvi-timeseries /,
    );
  });

  it('an order item: its project and bandset, by path', async () => {
    const db = await syncedDb();
    const order = orderInput('Levee', 'prj-demo-floods');
    const item = { ...order.order_items[0]!, bandset: { bandset_id: 'bs-aurora-rgb' } };
    const r = await add(db, 'order', { order_items: [item] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^eo: warning: order_items\.0\.bandset\.bandset_id: bandset "bs-aurora-rgb" is not in the mirrored lists; nearest known: bs-aurora-rgbn[ ,]/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('known ids, local ids and ids of another queued create pass in silence', async () => {
    const db = await syncedDb();
    const first = await add(db, 'job', { workflow_id: 'wf-new', project_id: 'prj-demo-crops' });
    expect(first.stderr).toContain('workflow "wf-new"');
    // Named by a create already queued: known to this mirror now.
    const again = await add(db, 'job', { workflow_id: 'wf-new', project_id: 'prj-demo-floods' });
    expect(again.stderr).toBe('');
    const listed = await add(db, 'job', {
      workflow_id: 'wf-cloud-mask',
      project_id: 'prj-demo-crops',
    });
    expect(listed.stderr).toBe('');
  });

  it('no warning for lists the service never gave (nothing to compare with)', async () => {
    const db = freshDb();
    expect((await eo(['sync', '--resources', 'indices'], { env: env(without.url, db) })).code).toBe(
      0,
    );
    const r = await add(db, 'job', { workflow_id: 'wf-anything', project_id: 'prj-anything' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

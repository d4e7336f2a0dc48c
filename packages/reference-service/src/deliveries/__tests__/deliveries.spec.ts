import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createOrganization } from '../../orgs/repository';
import { orgFolder, writeManifest } from '../paths';
import { OTHER, type TestApp } from '../../testing/harness';
import { SCENES, archiveItem, recurringItem, taskingItem } from '../../orders/__tests__/fixtures';
import {
  count,
  createOrder,
  itemsOf,
  createOrdersApp,
  step,
  type Json,
} from '../../orders/__tests__/helpers';

let t: TestApp;
/** A fulfilled archive item (2 scenes) and its catalog record ids. */
let archive: Json;
let catalogIds: string[];
let otherCatalogId: string;

const deliver = (
  deliveries: unknown[],
  opts: { key?: string; headers?: Record<string, string> } = {},
) => t.call({ method: 'POST', url: '/v0/catalogs/deliveries', payload: { deliveries }, ...opts });
const cloud = (p = 'exports/field') => ({ config: 'demo-bucket', path: p });

function deliveryRow(id: string) {
  return t.app.ctx.sqlite.prepare('SELECT * FROM deliveries WHERE id = ?').get(id) as Json;
}
function manifestOf(d: Json): Json {
  const file = path.join(t.app.ctx.config.deliveryRoot, 'org-demo', ...d.target_path.split('/'));
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

beforeAll(async () => {
  t = await createOrdersApp();
  const order = (
    await createOrder(t, [archiveItem({ item_ids: [SCENES.wide.id, SCENES.west.id] })])
  ).json();
  const theirs = (
    await createOrder(t, [archiveItem({ project_id: OTHER.projectId })], { key: t.otherKey })
  ).json();
  t.app.ctx.worker.drain();
  [archive] = await itemsOf(t, order.id);
  catalogIds = archive.tasks.map((k: Json) => k.catalog_id);
  otherCatalogId = (await itemsOf(t, theirs.id, t.otherKey))[0].tasks[0].catalog_id;
});
afterAll(async () => t?.close());

describe('POST /v0/catalogs/deliveries: catalog records', () => {
  it('creates one PENDING delivery per record (201) and delivers a manifest', async () => {
    const res = await deliver([{ catalog_ids: catalogIds, cloud_info: cloud() }]);
    expect(res.statusCode).toBe(201);
    const { deliveries } = res.json();
    expect(deliveries).toHaveLength(2);
    deliveries.forEach((d: Json, k: number) => {
      expect(d).toMatchObject({
        catalog_id: catalogIds[k],
        task_id: archive.tasks[k].id,
        order_item_id: null,
        cloud_delivery: cloud(),
        status: 'PENDING',
        reason: null,
        target_path: `exports/field/${d.delivery_id}.json`,
        created_by: 'usr-demo-analyst',
      });
      expect(d.delivery_id).toMatch(/^dlv_/);
      expect(d.created_at).toMatch(/Z$/);
    });

    const [first] = deliveries;
    expect(step(t)).toBe(1);
    expect(deliveryRow(first.delivery_id).status).toBe('IN_PROGRESS');
    t.app.ctx.worker.drain();
    for (const d of deliveries) {
      const row = deliveryRow(d.delivery_id);
      expect(row.status).toBe('SUCCESS');
      const manifest = manifestOf(d);
      expect(manifest.delivery).toMatchObject({
        delivery_id: d.delivery_id,
        status: 'SUCCESS',
        target_path: d.target_path,
      });
      expect(manifest.items).toHaveLength(1);
      expect(manifest.items[0].id).toBe(d.catalog_id);
      expect(manifest.items[0].details.properties).toHaveProperty('proj:epsg');
    }
  });

  it('404s unknown ids and ids of another organisation, naming each path', async () => {
    const before = count(t, 'deliveries');
    const res = await deliver([
      { catalog_ids: [catalogIds[0], 'cat_nope'], cloud_info: cloud() },
      { catalog_ids: [otherCatalogId], cloud_info: cloud() },
      { order_item_ids: ['oi_nope'], cloud_info: cloud() },
    ]);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect(res.json().error.details.map((d: Json) => d.path)).toEqual([
      'deliveries.0.catalog_ids.1',
      'deliveries.1.catalog_ids.0',
      'deliveries.2.order_item_ids.0',
    ]);
    expect(count(t, 'deliveries')).toBe(before);
    // The owner can deliver it.
    const theirs = await deliver([{ catalog_ids: [otherCatalogId], cloud_info: cloud() }], {
      key: t.otherKey,
    });
    expect(theirs.statusCode).toBe(201);
  });
});

describe('POST /v0/catalogs/deliveries: order items', () => {
  it('creates one delivery per task of each item', async () => {
    const res = await deliver([{ order_item_ids: [archive.id], cloud_info: cloud('by-item') }]);
    expect(res.statusCode).toBe(201);
    const { deliveries } = res.json();
    expect(deliveries.map((d: Json) => [d.task_id, d.catalog_id, d.order_item_id])).toEqual(
      archive.tasks.map((k: Json) => [k.id, k.catalog_id, archive.id]),
    );
    t.app.ctx.worker.drain();
    expect(deliveries.map((d: Json) => deliveryRow(d.delivery_id).status)).toEqual([
      'SUCCESS',
      'SUCCESS',
    ]);
    expect(manifestOf(deliveries[1]).items[0].task_id).toBe(archive.tasks[1].id);
  });

  it('waits for tasks in progress, then delivers completed ones and fails failed ones', async () => {
    const order = (
      await createOrder(t, [
        recurringItem({ name: 'W [fail-task:0]', cloud_cover: 40, no_of_occurrences: 2 }),
      ])
    ).json();
    // Pay (2 steps) so the tasks exist, but do not run them yet.
    expect(step(t)).toBe(1);
    expect(step(t)).toBe(1);
    const [item] = await itemsOf(t, order.id);
    expect(item.tasks.map((k: Json) => k.status)).toEqual(['PENDING', 'PENDING']);
    const { deliveries } = (
      await deliver([{ order_item_ids: [item.id], cloud_info: cloud() }])
    ).json();
    expect(deliveries.map((d: Json) => d.catalog_id)).toEqual([null, null]);
    t.app.ctx.worker.drain();
    const [failed, ok] = deliveries.map((d: Json) => deliveryRow(d.delivery_id));
    expect(failed).toMatchObject({ status: 'FAILED' });
    expect(failed.reason).toMatch(/did not complete: no acquisition/);
    expect(ok.status).toBe('SUCCESS');
    expect(ok.catalog_id).toMatch(/^cat_/);
  });

  it('fails the delivery of an item that has no task', async () => {
    const order = (await createOrder(t, [taskingItem({ name: 'Unpaid yet' })])).json();
    const itemId = order.order_items[0].id;
    const res = await deliver([{ order_item_ids: [itemId], cloud_info: cloud() }]);
    const [d] = res.json().deliveries;
    expect(d).toMatchObject({
      task_id: null,
      order_item_id: itemId,
      catalog_id: null,
      status: 'PENDING',
    });
    t.app.ctx.worker.drain();
    expect(deliveryRow(d.delivery_id)).toMatchObject({
      status: 'FAILED',
      reason: `order item ${itemId} has no completed task`,
    });
  });
});

describe('GET /v0/catalogs/deliveries/{delivery_id} (extension)', () => {
  it('re-reads a delivery until it is done; unknown and foreign ids are 404', async () => {
    const [created] = (
      await deliver([{ catalog_ids: [catalogIds[0]], cloud_info: cloud() }])
    ).json().deliveries;
    const read = (key?: string) =>
      t.call({ method: 'GET', url: `/v0/catalogs/deliveries/${created.delivery_id}`, key });
    const first = await read();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(created);
    t.app.ctx.worker.drain();
    const done = (await read()).json();
    expect(done).toMatchObject({ delivery_id: created.delivery_id, status: 'SUCCESS' });
    expect(done.updated_at >= created.updated_at).toBe(true);

    expect((await read(t.otherKey)).statusCode).toBe(404);
    const unknown = await t.call({ method: 'GET', url: '/v0/catalogs/deliveries/dlv_unknown' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });
});

describe('POST /v0/catalogs/deliveries: rejected requests', () => {
  it('needs exactly one of catalog_ids and order_item_ids', async () => {
    const both = await deliver([
      { catalog_ids: catalogIds, order_item_ids: [archive.id], cloud_info: cloud() },
    ]);
    expect(both.statusCode).toBe(400);
    expect(both.json().error.details.map((d: Json) => d.path)).toEqual([
      'deliveries.0.order_item_ids',
    ]);
    const neither = await deliver([{ cloud_info: cloud() }]);
    expect(neither.json().error.details.map((d: Json) => d.path)).toEqual([
      'deliveries.0.catalog_ids',
    ]);
    const noCloud = await deliver([{ catalog_ids: catalogIds }]);
    expect(noCloud.json().error.details.map((d: Json) => d.path)).toEqual([
      'deliveries.0.cloud_info',
    ]);
    const empty = await deliver([]);
    expect(empty.json().error.details.map((d: Json) => d.path)).toEqual(['deliveries']);
  });

  it('refuses path traversal and absolute paths (400 with the path)', async () => {
    for (const p of [
      '../escape',
      'a/../../b',
      '/etc',
      '\\\\server\\share',
      'C:\\temp',
      'a\\..\\..\\b',
    ]) {
      const res = await deliver([{ catalog_ids: [catalogIds[0]], cloud_info: cloud(p) }]);
      expect(res.statusCode, p).toBe(400);
      expect(
        res.json().error.details.map((d: Json) => d.path),
        p,
      ).toEqual(['deliveries.0.cloud_info.path']);
    }
  });

  it('refuses schemes, home folders, encoded dots, control characters and over-long names', async () => {
    for (const p of [
      'file:///etc',
      'http://example.com/x',
      '~/x',
      'a/~b',
      '%2e%2e/%2e%2e',
      'a\u0001b',
      'a/b\u007f',
      'x\ny',
      'a:b',
      '.',
      './x',
      `a/${'x'.repeat(256)}`,
      `a/${'é'.repeat(128)}`, // 256 bytes in UTF-8
      '///',
    ]) {
      const res = await deliver([{ catalog_ids: [catalogIds[0]], cloud_info: cloud(p) }]);
      expect(res.statusCode, JSON.stringify(p)).toBe(400);
      expect(res.json().error.details.map((d: Json) => d.path)).toEqual([
        'deliveries.0.cloud_info.path',
      ]);
    }
  });

  it('accepts cloud URLs and names up to 255 bytes, and delivers them (target_path keeps the scheme)', async () => {
    const long = 'é'.repeat(127) + 'x'; // 255 bytes
    const res = await deliver([
      { catalog_ids: [catalogIds[0]], cloud_info: cloud('s3://bucket/prefix/') },
      { catalog_ids: [catalogIds[1]], cloud_info: cloud(`Ernte 2024//Süd/${long}`) },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [a, b] = res.json().deliveries;
    expect(a.target_path).toBe(`s3://bucket/prefix/${a.delivery_id}.json`);
    expect(b.target_path).toBe(`Ernte 2024/Süd/${long}/${b.delivery_id}.json`);
    t.app.ctx.worker.drain();
    expect(deliveryRow(a.delivery_id)).toMatchObject({ status: 'SUCCESS', reason: null });
    expect(deliveryRow(b.delivery_id)).toMatchObject({ status: 'SUCCESS', reason: null });
    const root = path.join(t.app.ctx.config.deliveryRoot, 'org-demo');
    expect(fs.existsSync(path.join(root, 's3', 'bucket', 'prefix', `${a.delivery_id}.json`))).toBe(
      true,
    );
    expect(manifestOf(b).delivery.delivery_id).toBe(b.delivery_id);
  });

  it('refuses an id listed twice', async () => {
    const res = await deliver([
      { catalog_ids: [catalogIds[0], catalogIds[0]], cloud_info: cloud() },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: Json) => d.path)).toEqual([
      'deliveries.0.catalog_ids.1',
    ]);
  });

  it('401s without a key', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/catalogs/deliveries',
      key: null,
      payload: { deliveries: [{ catalog_ids: catalogIds, cloud_info: cloud() }] },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('organisation folders under the delivery root', () => {
  it('an organisation id never names a folder outside its own (`..` wrote into the data dir)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-root-'));
    try {
      for (const orgId of ['..', '.', '../x', 'a/../..', '.hidden']) {
        const file = writeManifest(root, orgId, 'out', `dlv-${orgFolder(orgId)}`, { ok: 1 });
        const rel = path.relative(root, file);
        expect(rel.split(path.sep)[0], orgId).toBe(orgFolder(orgId));
        expect(rel.startsWith('..'), orgId).toBe(false);
        expect(['.', '..']).not.toContain(orgFolder(orgId));
      }
      expect(orgFolder('org-demo')).toBe('org-demo');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses to create an organisation whose id is not a safe name', () => {
    for (const id of ['..', '.', 'a/b', '', 'x\u0000', ' org']) {
      expect(() => createOrganization(t.app.ctx.sqlite, { id, name: 'x' }, 0), id).toThrow(
        /organisation id/,
      );
    }
  });
});

describe('POST /v0/catalogs/deliveries: worker safety and idempotency', () => {
  it('fails a delivery whose folder is a symbolic link out of the delivery area', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-outside-'));
    try {
      const root = path.join(t.app.ctx.config.deliveryRoot, 'org-demo');
      fs.mkdirSync(root, { recursive: true });
      fs.symlinkSync(outside, path.join(root, 'escape'));
      const res = await deliver([{ catalog_ids: [catalogIds[0]], cloud_info: cloud('escape/x') }]);
      expect(res.statusCode).toBe(201);
      const [d] = res.json().deliveries;
      t.app.ctx.worker.drain();
      const row = deliveryRow(d.delivery_id);
      expect(row.status).toBe('FAILED');
      expect(row.reason).toMatch(/^unsafe path/);
      expect(fs.readdirSync(outside)).toEqual(['x']);
      expect(fs.readdirSync(path.join(outside, 'x'))).toEqual([]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('replays a delivery request with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'deliver-1' };
    const body = [{ catalog_ids: [catalogIds[1]], cloud_info: cloud('replay') }];
    const first = await deliver(body, { headers });
    const again = await deliver(body, { headers });
    expect(first.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(count(t, 'deliveries', "cloud_path = 'replay'")).toBe(1);
    const conflict = await deliver(
      [{ catalog_ids: [catalogIds[0]], cloud_info: cloud('replay') }],
      { headers },
    );
    expect(conflict.statusCode).toBe(409);
  });

  it('finishes deliveries after a restart, writing each manifest once', async () => {
    const res = await deliver([{ catalog_ids: catalogIds, cloud_info: cloud('restart') }]);
    const ids = (res.json().deliveries as Json[]).map((d) => d.delivery_id);
    expect(step(t)).toBe(1); // one delivery IN_PROGRESS, the other PENDING
    await t.app.close();
    const app = await buildApp({
      dataDir: t.dataDir,
      logLevel: false,
      workerTickMs: 0,
      stepDelayMs: 0,
      validateResponses: true,
    });
    try {
      app.ctx.worker.drain();
      const rows = ids.map(
        (id) =>
          app.ctx.sqlite.prepare('SELECT status FROM deliveries WHERE id = ?').get(id) as Json,
      );
      expect(rows.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
      const folder = path.join(app.ctx.config.deliveryRoot, 'org-demo', 'restart');
      expect(fs.readdirSync(folder).sort()).toEqual(ids.map((id) => `${id}.json`).sort());
      expect(app.ctx.worker.pending()).toBe(0);
    } finally {
      await app.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
      t = undefined as unknown as TestApp;
    }
  });
});

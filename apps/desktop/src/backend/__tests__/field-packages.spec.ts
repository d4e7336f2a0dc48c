/**
 * `packages.*` through the backend's dispatch (outputs checked against the contract): laptop A
 * syncs with the real reference service and shares an AOI's package; GDAL lists its layers;
 * laptop B, which never reached the service, opens it: the same records by id and `updated_at`,
 * nothing doubled when opened again; a damaged package and one of another organisation are
 * refused with their reason, and change nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ogrLayers } from '@eo/formats/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_APP_PACKAGE_BYTES, type ExportedFile } from '../../shared/contract';
import { aoiInput, auroraScene } from './create-inputs';
import { createEoClient } from '@eo/api-client';
import {
  errorOf,
  startBackend,
  startService,
  syncToEnd,
  connectTo,
  tempDir,
  type TestBackend,
  type TestService,
} from './harness';

let service: TestService;
let a: TestBackend;
let b: TestBackend;
let dir: string;
let aoiId: string;

beforeAll(async () => {
  dir = tempDir('eo-desktop-packages-');
  service = await startService(200);
  a = await connectTo(startBackend(), service);
  await syncToEnd(a);
  const scene = await auroraScene(createEoClient({ baseUrl: service.url, apiKey: service.key }));
  await a.call('outbox.enqueue', {
    kind: 'aoi',
    input: aoiInput('Maize north', scene.id, scene.box),
  });
  expect(await a.call('outbox.flush')).toMatchObject({ sent: 1, failed: 0 });
  await syncToEnd(a);
  aoiId = (await a.call('aois.list', {})).find((x) => x.name === 'Maize north')!.aoi_id;
  // B never reaches the service: no service is configured there.
  b = startBackend();
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await service?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const save = (file: ExportedFile, name = file.fileName) => {
  const to = path.join(dir, name);
  fs.writeFileSync(to, Buffer.from(file.base64, 'base64'));
  return to;
};
const stamps = async (t: TestBackend) =>
  (await t.call('aois.list', {})).map((x) => `${x.aoi_id}@${x.updated_at}`).sort();

describe('field packages from the app', () => {
  let shared: ExportedFile;

  it('plans and shares an AOI’s package that GDAL reads', async () => {
    const plan = await a.call('packages.plan', { selection: { kind: 'aoi', aoiId } });
    expect(plan.label).toContain('Maize north');
    expect(plan.records.aois).toBe(1);
    expect(plan.budgetBytes).toBe(MAX_APP_PACKAGE_BYTES);
    shared = await a.call('packages.share', { selection: { kind: 'aoi', aoiId } });
    expect(shared.fileName).toMatch(/^eo-package-.*maize-north-\d{8}\.gpkg$/);
    expect(shared.bytes).toBe(Buffer.from(shared.base64, 'base64').length);
    const layers = ogrLayers(save(shared));
    expect(layers.find((l) => l.name === 'aois')).toMatchObject({ count: 1 });
    expect(layers.find((l) => l.name === 'catalog_footprints')?.count).toBe(
      plan.records.catalogs ?? 0,
    );
  });

  it('opens in a mirror that never synced: the same records, nothing doubled again', async () => {
    const before = b.events.length;
    const report = await b.call('packages.open', { name: 'site.gpkg', base64: shared.base64 });
    expect(report.records.aois).toEqual({ added: 1, updated: 0, kept: 0 });
    expect(b.events.slice(before).some((e) => e.event === 'records.changed')).toBe(true);
    const aoisOfA = (await stamps(a)).filter((s) => s.startsWith(`${aoiId}@`));
    expect(await stamps(b)).toEqual(aoisOfA);
    const again = await b.call('packages.open', { name: 'site.gpkg', base64: shared.base64 });
    expect(again.records.aois).toEqual({ added: 0, updated: 0, kept: 1 });
    expect(await stamps(b)).toEqual(aoisOfA);
  });

  it('refuses a damaged package and one of another organisation, changing nothing', async () => {
    const held = await stamps(b);
    const cut = Buffer.from(shared.base64, 'base64').subarray(0, 4096);
    const damaged = await errorOf(b, 'packages.open', {
      name: 'cut.gpkg',
      base64: cut.toString('base64'),
    });
    expect(damaged.code).toBe('invalid_argument');
    expect(damaged.message).toMatch(/^cut\.gpkg: .*(truncated|damaged)/);
    const notSqlite = await errorOf(b, 'packages.open', {
      name: 'notes.gpkg',
      base64: Buffer.from('PK\u0003\u0004 not a package').toString('base64'),
    });
    expect(notSqlite.code).toBe('invalid_argument');

    const foreign = save(shared, 'foreign.gpkg');
    const db = new Database(foreign);
    db.prepare(
      `UPDATE eo_package SET value = json_set(value, '$.origin.organisation', 'org-elsewhere')
       WHERE key = 'manifest'`,
    ).run();
    db.close();
    const refused = await errorOf(b, 'packages.open', {
      name: 'foreign.gpkg',
      base64: fs.readFileSync(foreign).toString('base64'),
    });
    expect(refused.code).toBe('invalid_argument');
    expect(refused.message).toMatch(/another origin.*org-elsewhere.*Nothing was changed/);
    expect(await stamps(b)).toEqual(held);
  });

  it('says an AOI this mirror does not hold is to be synced first, for plan and share', async () => {
    const selection = { kind: 'aoi', aoiId: 'aoi-not-synced-here' } as const;
    for (const method of ['packages.plan', 'packages.share'] as const) {
      const e = await errorOf(b, method, { selection });
      expect(e.code).toBe('invalid_argument');
      expect(e.message).toBe('AOI aoi-not-synced-here is not in this mirror: sync it first');
      expect(e.details?.issues).toEqual([{ path: 'selection', message: e.message }]);
    }
  });
});

/**
 * The service's reference lists as form choices (`pull/reference.ts` + `lookups.ts`), against
 * the real reference service in-process, and behind a proxy that answers 404 for the reads (a
 * service without them): that degrades quietly to the ids the records show.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import {
  indexInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { openMirror, type Mirror } from '../mirror';

const REFERENCE_PATH = /^\/v0\/(projects|bandsets|satellites|workflows|stores)(\?|$)/;

let svc: TestService;
let without: FaultProxy;
let dir: string;
const mirrors: Mirror[] = [];
beforeAll(async () => {
  svc = await startService();
  without = await startFaultProxy(svc.url, (req) =>
    req.method === 'GET' && REFERENCE_PATH.test(req.url) ? { status: 404 } : 'pass',
  );
  const tmp = tempDatabase();
  dir = tmp.dir;
  tmp.close();
});
afterAll(async () => {
  for (const m of mirrors) m.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await without.close();
  await svc.close();
});

function freshMirror(name: string): Mirror {
  const m = openMirror(path.join(dir, `${name}.sqlite`));
  mirrors.push(m);
  return m;
}

describe('reference lists in the mirror', () => {
  it('a first sync brings the service lists: names, every band of a satellite, bandsets', async () => {
    const mirror = freshMirror('fresh');
    expect(mirror.lookups().projects).toEqual([]);
    const report = await mirror.sync(testClient(svc.url, svc.key), { resources: ['indices'] });
    expect(report.reference).toEqual({
      read: { project: 2, bandset: 4, satellite: 3, workflow: 3, store: 3 },
      absent: [],
      failed: [],
    });
    const lookups = mirror.lookups();
    expect(lookups.projects).toEqual([
      { id: 'prj-demo-crops', name: 'Crop monitoring' },
      { id: 'prj-demo-floods', name: 'Flood response' },
    ]);
    expect(lookups.projectIds).toEqual(['prj-demo-crops', 'prj-demo-floods']);
    const aurora = lookups.satellites.find((s) => s.id === 'sat-aurora-1')!;
    expect(aurora).toMatchObject({
      name: 'Aurora-1',
      bandsListed: true,
      providers: ['eo-field-desk'],
    });
    // Its archive collections, named: what a saved archive search names with it.
    expect(aurora.collections).toContainEqual({ id: 'col-aurora-l2a', name: expect.any(String) });
    expect(aurora.bands).toEqual(expect.arrayContaining(['B01', 'B05', 'B11']));
    expect(lookups.bandsets.find((b) => b.id === 'bs-aurora-rgbn')).toMatchObject({
      satelliteId: 'sat-aurora-1',
      bands: ['B02', 'B03', 'B04', 'B08'],
    });
    expect(lookups.workflows.map((w) => w.id)).toEqual([
      'wf-ndvi-timeseries',
      'wf-change-detection',
      'wf-cloud-mask',
    ]);
    expect(lookups.workflows[0]!.name).toMatch(/\S/);
    // Where deliveries can land: the delivery form offers them, with their types.
    expect(lookups.stores.map((st) => [st.id, st.type])).toEqual([
      ['store-s3-field', 'S3'],
      ['store-gcs-archive', 'GCS'],
      ['store-azblob-partner', 'AZBLOB'],
    ]);
    expect(lookups.stores[0]).toMatchObject({
      name: 'field-deliveries-s3',
      bucket: 'eo-field-deliveries',
    });
  });

  it('ids seen only in records or the outbox still come after the listed ones, without a name', async () => {
    const mirror = freshMirror('mixed');
    await mirror.sync(testClient(svc.url, svc.key), { resources: [] });
    mirror.outbox.enqueue('job', { workflow_id: 'wf-queued', project_id: 'prj-queued' });
    mirror.outbox.enqueue('delivery', {
      deliveries: [{ catalog_ids: ['cat-1'], cloud_info: { config: 'field-bucket', path: 'a/b' } }],
    });
    const lookups = mirror.lookups();
    expect(lookups.cloudConfigs).toEqual(['field-bucket']);
    expect(lookups.projects.at(-1)).toEqual({ id: 'prj-queued', name: null });
    expect(lookups.workflows.at(-1)).toEqual({ id: 'wf-queued', name: null });
    // Ids only typed here are no word of the service's (issue 26: forms flag them).
    expect(lookups.serviceIds.projects).toEqual(['prj-demo-crops', 'prj-demo-floods']);
    expect(lookups.serviceIds.workflows).not.toContain('wf-queued');
    expect(lookups.serviceIds.satellites).toContain('sat-aurora-1');
  });

  it('a service without the reads (404) degrades quietly to the bands the records show', async () => {
    const mirror = freshMirror('without');
    const client = testClient(without.url, svc.key);
    // An index of sat-aurora-1 mirrored from the service: its bands are all we can guess.
    await testClient(svc.url, svc.key).createIndex(indexInput('Red-edge guess'));
    const report = await mirror.sync(client, { resources: ['indices'] });
    expect(report.reference).toEqual({
      read: {},
      absent: ['project', 'bandset', 'satellite', 'workflow', 'store'],
      failed: [],
    });
    expect(report.resources.every((r) => r.lastError === null)).toBe(true);
    const aurora = mirror.lookups().satellites.find((s) => s.id === 'sat-aurora-1')!;
    expect(aurora.bandsListed).toBe(false);
    expect(aurora.name).toBeNull();
    expect(aurora.bands).toContain('B05');
    expect(aurora.bands).not.toContain('B11');
    expect(mirror.lookups().projects.every((p) => p.name === null)).toBe(true);
    // No lists: nothing can be called unknown.
    expect(mirror.lookups().serviceIds).toEqual({
      projects: [],
      bandsets: [],
      satellites: [],
      workflows: [],
    });
  });

  it('keeps the last lists when the service stops offering them, and clear() forgets them', async () => {
    const mirror = freshMirror('kept');
    await mirror.sync(testClient(svc.url, svc.key), { resources: [] });
    await mirror.sync(testClient(without.url, svc.key), { resources: [] });
    expect(mirror.lookups().projects.map((p) => p.name)).toEqual([
      'Crop monitoring',
      'Flood response',
    ]);
    mirror.clear();
    expect(mirror.lookups().projects).toEqual([]);
  });

  it('reference: false leaves the lists alone', async () => {
    const mirror = freshMirror('off');
    const report = await mirror.sync(testClient(svc.url, svc.key), {
      resources: [],
      reference: false,
    });
    expect(report.reference).toBeUndefined();
    expect(mirror.lookups().satellites).toEqual([]);
  });
});

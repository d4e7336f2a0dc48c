/** Deliveries, jobs and visualizations this client created: kept, refreshed by id, listed newest first. */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeCreatedRecords } from '../created';
import { fromAssets } from '../refresh-created';

const tmp = tempDir('created');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});

describe('created records', () => {
  const created = makeCreatedRecords(db.sqlite, () => 1);

  it('deliveries: refreshed by delivery_id, newest first', () => {
    created.putDelivery({
      delivery_id: 'd1',
      status: 'PENDING',
      created_at: '2024-05-01T10:00:00.000000Z',
    });
    created.putDelivery({
      delivery_id: 'd2',
      status: 'PENDING',
      created_at: '2024-05-02T10:00:00.000000Z',
    });
    created.putDelivery({
      delivery_id: 'd1',
      status: 'DELIVERED',
      created_at: '2024-05-01T10:00:00.000000Z',
    });
    expect(created.deliveries()).toEqual([
      { delivery_id: 'd2', status: 'PENDING', created_at: '2024-05-02T10:00:00.000000Z' },
      { delivery_id: 'd1', status: 'DELIVERED', created_at: '2024-05-01T10:00:00.000000Z' },
    ]);
  });

  it('jobs: keyed by id; a record without a creation time sorts by when it was recorded', () => {
    created.putJob({ id: 'j1', status: 'RUNNING', created_at: '2024-05-03 08:00:00.000000+00:00' });
    created.putJob({ id: 'j0', status: 'QUEUED' });
    expect(created.jobs().map((j) => j.id)).toEqual(['j1', 'j0']);
    expect(() => created.putJob({ status: 'QUEUED' })).toThrow(/job without an id/);
  });

  it('visualizations: keyed by id, need their AOI', () => {
    created.putVisualization({ id: 'v1', aoi_id: 'a1', status: 'creating', progress: 0 });
    created.putVisualization({ id: 'v1', aoi_id: 'a1', status: 'success', progress: 100 });
    expect(created.visualizations()).toEqual([
      { id: 'v1', aoi_id: 'a1', status: 'success', progress: 100 },
    ]);
    expect(() => created.putVisualization({ id: 'v2', status: 'creating' })).toThrow(
      /without an aoi_id/,
    );
  });

  it('numeric ids (a real service) are kept as strings', () => {
    created.putJob({ id: 501, status: 'RUNNING', created_at: '2024-05-04T08:00:00+02:00' });
    created.putDelivery({ delivery_id: 502, status: 'PENDING' });
    created.putVisualization({ id: 503, aoi_id: 7, status: 'creating' });
    const ids = (table: string) => db.sqlite.prepare(`SELECT id FROM ${table}`).pluck().all();
    expect(ids('mirror_jobs')).toContain('501');
    expect(ids('mirror_deliveries')).toContain('502');
    expect(
      db.sqlite.prepare("SELECT aoi_id FROM mirror_visualizations WHERE id = '503'").pluck().get(),
    ).toBe('7');
    db.sqlite.prepare("DELETE FROM mirror_jobs WHERE id = '501'").run();
    db.sqlite.prepare("DELETE FROM mirror_deliveries WHERE id = '502'").run();
    db.sqlite.prepare("DELETE FROM mirror_visualizations WHERE id = '503'").run();
  });

  it('unfinished: records whose status is not final, oldest first, per table', () => {
    created.putVisualization({ id: 'v3', aoi_id: 'a1', status: 'creating' });
    created.putJob({ id: 'j2', status: 'SUCCEEDED', created_at: '2024-05-04T08:00:00Z' });
    const open = created.unfinished();
    expect(open.deliveries.map((d) => d.delivery_id)).toEqual(['d1', 'd2']);
    expect(open.jobs.map((j) => j.id)).toEqual(['j0', 'j1']);
    expect(open.visualizations.map((v) => v.id)).toEqual(['v3']);
  });
});

describe('fromAssets: a visualization followed through its AOI assets', () => {
  const v = { id: 'v1', aoi_id: 'a1', status: 'creating', progress: 0 };
  const asset = (visualization_id: string, status: string, progress: number) => ({
    id: `${visualization_id}-${status}-${progress}`,
    visualization_id,
    status,
    progress,
  });
  it('averages progress and settles the status from its own assets only', () => {
    expect(fromAssets(v, [asset('v1', 'success', 100), asset('v1', 'running', 40)])).toMatchObject({
      status: 'creating',
      progress: 70,
    });
    expect(fromAssets(v, [asset('v1', 'success', 100), asset('v9', 'failed', 0)])).toMatchObject({
      status: 'success',
      progress: 100,
    });
    expect(fromAssets(v, [asset('v1', 'failed', 100), asset('v1', 'failed', 100)])?.status).toBe(
      'failed',
    );
    expect(fromAssets(v, [asset('v1', 'success', 100), asset('v1', 'failed', 100)])?.status).toBe(
      'partial_success',
    );
    expect(fromAssets(v, [asset('v9', 'success', 100)])).toBeNull();
  });
});

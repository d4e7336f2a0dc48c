import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import {
  count,
  createAoi,
  getAoi,
  insertFixtureScenes,
  listAssets,
  restart,
  step,
} from './fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  insertFixtureScenes(t);
});
afterAll(async () => t.close());

describe('AOI processing across a restart', () => {
  it('resumes where it stopped: every asset produced exactly once', async () => {
    const aoi = await createAoi(t);
    step(t); // started -> running
    step(t); // first asset done
    const before = await listAssets(t, aoi.aoi_id);
    expect(before.map((a) => a.status)).toEqual(['success', 'running', 'pending']);

    t = await restart(t);
    expect(t.app.ctx.worker.pending()).toBe(1);
    t.app.ctx.worker.drain();

    expect(await getAoi(t, aoi.aoi_id)).toMatchObject({ status: 'partial_success', progress: 100 });
    const after = await listAssets(t, aoi.aoi_id);
    expect(after.map((a) => a.status)).toEqual(['success', 'success', 'failed']);
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    // The asset finished before the restart was not produced again.
    expect(after[0].updated_at).toBe(before[0].updated_at);
    expect(count(t, 'SELECT count(*) AS n FROM assets WHERE aoi_id = ?', aoi.aoi_id)).toBe(3);
    expect(t.app.ctx.worker.pending()).toBe(0);
  });

  it('a step that runs again on a settled AOI changes nothing', async () => {
    const aoi = await createAoi(t, { item_ids: ['fx-aurora-cover-0501'] });
    t.app.ctx.worker.drain();
    const settled = await getAoi(t, aoi.aoi_id);
    t.app.ctx.worker.schedule('aoi.advance', aoi.aoi_id);
    t.app.ctx.worker.drain();
    expect(await getAoi(t, aoi.aoi_id)).toEqual(settled);
  });
});

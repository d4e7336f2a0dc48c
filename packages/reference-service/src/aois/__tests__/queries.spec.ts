import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';

/** The hot queries of AOIs, assets, visualizations and jobs use their indexes. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

function plan(sql: string): string {
  return (t.app.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
    .map((r) => r.detail)
    .join('\n');
}

describe('query plans', () => {
  it('lists AOIs of an organisation by its index, in order, without a sort', () => {
    const p = plan("SELECT * FROM aois WHERE org_id = 'o' ORDER BY seq LIMIT 10 OFFSET 0");
    expect(p).toMatch(/USING INDEX aois_org_seq/);
    expect(p).not.toMatch(/TEMP B-TREE/);
    expect(
      plan("SELECT * FROM aois WHERE org_id = 'o' AND project_id IN ('a', 'b') ORDER BY seq"),
    ).toMatch(/USING INDEX aois_org_project|USING INDEX aois_org_seq/);
  });
  it('lists assets of an AOI and of a visualization by index', () => {
    const p = plan("SELECT * FROM assets WHERE aoi_id = 'a' ORDER BY seq LIMIT 10 OFFSET 0");
    expect(p).toMatch(/USING INDEX assets_aoi_seq/);
    expect(p).not.toMatch(/TEMP B-TREE/);
    expect(
      plan("SELECT * FROM assets WHERE visualization_id = 'v' AND status = 'pending' ORDER BY seq"),
    ).toMatch(/USING INDEX assets_visualization/);
  });
  it('finds creating visualizations of an AOI and tasks of a job by index', () => {
    expect(
      plan("SELECT 1 FROM visualizations WHERE aoi_id = 'a' AND status = 'creating' LIMIT 1"),
    ).toMatch(/USING COVERING INDEX visualizations_aoi_status/);
    expect(plan("SELECT * FROM job_tasks WHERE job_id = 'j' ORDER BY position")).toMatch(
      /USING INDEX job_tasks_job/,
    );
  });
});

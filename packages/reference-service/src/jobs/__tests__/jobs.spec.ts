import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCENES,
  count,
  createAoi,
  insertFixtureScenes,
  restart,
  step,
} from '../../aois/__tests__/fixtures';
import { createProject } from '../../orgs/repository';
import { createTestApp, type TestApp } from '../../testing/harness';
import { WORKFLOWS, estimate } from '../workflows';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  insertFixtureScenes(t);
});
afterAll(async () => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DURATION = /^\d+\.\d{3}s$/;
const decode = (bytes: number[]) => new TextDecoder().decode(Uint8Array.from(bytes));
const decodeJson = (bytes: number[]): Json => JSON.parse(decode(bytes));

let projectSeq = 0;
/** A fresh project of the demo organisation, so each test controls which AOIs it holds. */
function newProject(): string {
  const id = `prj-jobs-${++projectSeq}`;
  createProject(t.app.ctx.sqlite, { id, orgId: 'org-demo', name: id }, Date.now());
  return id;
}

async function projectWithAois(itemSets: string[][]): Promise<string> {
  const project = newProject();
  for (const item_ids of itemSets) await createAoi(t, { project_id: project, item_ids });
  t.app.ctx.worker.drain();
  return project;
}

function startJob(
  workflow: string,
  project: string | undefined,
  opts: { key?: string | null; payload?: unknown; headers?: Record<string, string> } = {},
) {
  const qs = project === undefined ? '' : `?project_id=${encodeURIComponent(project)}`;
  return t.call({
    method: 'POST',
    url: `/v0/workflows/${workflow}/jobs${qs}`,
    ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
    key: opts.key,
    headers: opts.headers,
  });
}

async function getJob(id: string, key?: string): Promise<Json> {
  const res = await t.call({ method: 'GET', url: `/v0/jobs/${id}`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const taskStatuses = (job: Json) => job.tasks.map((x: Json) => x.status);

describe('POST /v0/workflows/{workflow_id}/jobs', () => {
  it('creates a QUEUED job (201) with one PENDING task per workflow step', async () => {
    const project = await projectWithAois([[SCENES.cover.id, SCENES.later.id]]);
    const res = await startJob('wf-ndvi-timeseries', project);
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json();
    const { seconds, tokens } = estimate(WORKFLOWS[0]!, 1);
    expect(job).toMatchObject({
      workflow_id: 'wf-ndvi-timeseries',
      project_id: project,
      created_by: 'usr-demo-analyst',
      status: 'QUEUED',
      progress: '0',
      time_taken: null,
      estimated_duration: seconds,
      cost: tokens,
      val_errors: [],
      finished_at: null,
      exec_created_at: null,
      exec_updated_at: null,
    });
    expect(job.id).toMatch(/^job_/);
    expect(job.created_at).toMatch(ISO_Z);
    expect(decodeJson(job.spec)).toMatchObject({
      workflow_id: 'wf-ndvi-timeseries',
      project_id: project,
      steps: [{ key: 'collect-aois' }, { key: 'compute-ndvi' }, { key: 'build-timeseries' }],
    });
    const [collect, compute, build] = job.tasks;
    expect(job.tasks.map((x: Json) => x.name)).toEqual([
      'Collect AOIs',
      'Compute NDVI',
      'Build time series',
    ]);
    expect(taskStatuses(job)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    expect(collect.depends_on).toEqual([]);
    expect(compute.depends_on).toEqual([collect.id]);
    expect(build.depends_on).toEqual([compute.id]);
    expect(compute.block_info).toEqual({
      id: 'blk-band-math',
      name: 'Band math',
      version: '2.0.1',
    });
    expect(compute).toMatchObject({
      progress: 0,
      state_msg: 'queued',
      time_taken: null,
      recv_time: null,
      err_msg: null,
      estimated_time_duration: 30,
      result: [],
      info_logs: [],
    });
    expect(compute.disclaimer[0]).toMatch(/simulated/);
    expect(decodeJson(compute.inputs)).toEqual({
      project_id: project,
      depends_on: ['collect-aois'],
    });
    t.app.ctx.worker.drain();
  });

  it('runs QUEUED -> RUNNING -> SUCCEEDED, one task per step, with string progress', async () => {
    const project = await projectWithAois([
      [SCENES.cover.id, SCENES.later.id],
      [SCENES.half.id, SCENES.away.id],
    ]);
    const created = (await startJob('wf-ndvi-timeseries', project)).json();

    step(t);
    let job = await getJob(created.id);
    expect(job).toMatchObject({ status: 'RUNNING', progress: '0' });
    expect(job.exec_created_at).toMatch(ISO_Z);
    expect(job.time_taken).toMatch(DURATION);
    expect(taskStatuses(job)).toEqual(['RUNNING', 'PENDING', 'PENDING']);
    expect(job.tasks[0].recv_time).toMatch(ISO_Z);

    step(t);
    job = await getJob(created.id);
    expect(job).toMatchObject({ status: 'RUNNING', progress: '33' });
    expect(taskStatuses(job)).toEqual(['SUCCEEDED', 'RUNNING', 'PENDING']);
    expect(job.tasks[0]).toMatchObject({ progress: 100, state_msg: 'succeeded' });
    expect(job.tasks[0].time_taken).toMatch(DURATION);
    expect(job.tasks[0].send_time).toMatch(ISO_Z);

    step(t);
    expect((await getJob(created.id)).progress).toBe('66');
    step(t);
    job = await getJob(created.id);
    expect(job).toMatchObject({ status: 'SUCCEEDED', progress: '100' });
    expect(job.finished_at).toMatch(ISO_Z);
    expect(taskStatuses(job)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']);
    // The series: one per AOI with a finished scene, points in date order.
    const { series } = decodeJson(job.tasks[2].result);
    expect(series).toHaveLength(2);
    expect(series[0].points.map((p: Json) => p.date)).toEqual(['2024-05-01', '2024-08-15']);
    expect(series[1].points.map((p: Json) => p.date)).toEqual(['2024-06-01']);
    for (const p of series.flatMap((s: Json) => s.points)) {
      expect(p.mean_ndvi).toBeGreaterThanOrEqual(-0.1);
      expect(p.mean_ndvi).toBeLessThanOrEqual(0.8);
    }
    expect(decode(job.tasks[0].info_logs)).toMatch(/2 AOIs with 3 usable scene assets/);
    expect(t.app.ctx.worker.pending()).toBe(0);
  });

  it('runs a DAG: merge-masks depends on two parallel tasks (wf-cloud-mask)', async () => {
    const project = await projectWithAois([[SCENES.cover.id, SCENES.half.id]]);
    const job = (await startJob('wf-cloud-mask', project)).json();
    const byKey = Object.fromEntries(job.tasks.map((x: Json) => [x.name, x]));
    expect(byKey['Merge masks'].depends_on).toEqual([
      byKey['Detect clouds'].id,
      byKey['Detect cloud shadows'].id,
    ]);
    t.app.ctx.worker.drain();
    const done = await getJob(job.id);
    expect(done.status).toBe('SUCCEEDED');
    const { masks } = decodeJson(done.tasks[3].result);
    expect(masks.map((m: Json) => m.cloud_fraction)).toEqual([0.12, 0.3]);
    for (const m of masks) {
      expect(m.clear_fraction).toBeCloseTo(1 - m.cloud_fraction - m.shadow_fraction, 3);
    }
  });

  it('fails at run time when a step lacks input: RUNNING -> FAILED, later tasks SKIPPED', async () => {
    // One date per AOI: nothing to compare.
    const project = await projectWithAois([[SCENES.cover.id], [SCENES.half.id]]);
    const created = (await startJob('wf-change-detection', project)).json();
    expect(created.status).toBe('QUEUED');
    step(t);
    step(t);
    expect((await getJob(created.id)).status).toBe('RUNNING');
    step(t);
    const job = await getJob(created.id);
    expect(job).toMatchObject({ status: 'FAILED', progress: '33' });
    expect(job.finished_at).toMatch(ISO_Z);
    expect(taskStatuses(job)).toEqual(['SUCCEEDED', 'FAILED', 'SKIPPED']);
    expect(job.tasks[1]).toMatchObject({
      failure_type: 'INPUT',
      err_msg: 'no AOI has finished scene assets on two different dates',
      state_msg: 'failed',
    });
    expect(job.tasks[2].state_msg).toBe('skipped: Select scene pairs failed');
    expect(job.tasks[2].recv_time).toBeNull();
    expect(t.app.ctx.worker.pending()).toBe(0);
  });

  it('succeeds change detection when an AOI has scenes on two dates', async () => {
    const project = await projectWithAois([[SCENES.cover.id, SCENES.later.id]]);
    const created = (await startJob('wf-change-detection', project)).json();
    t.app.ctx.worker.drain();
    const job = await getJob(created.id);
    expect(job.status).toBe('SUCCEEDED');
    const { changes } = decodeJson(job.tasks[2].result);
    expect(changes).toEqual([
      expect.objectContaining({ from_date: '2024-05-01', to_date: '2024-08-15' }),
    ]);
  });

  it('fails the first task when the AOIs have no finished scene asset', async () => {
    const project = await projectWithAois([[SCENES.away.id]]);
    const created = (await startJob('wf-ndvi-timeseries', project)).json();
    t.app.ctx.worker.drain();
    const job = await getJob(created.id);
    expect(job).toMatchObject({ status: 'FAILED', progress: '0' });
    expect(taskStatuses(job)).toEqual(['FAILED', 'SKIPPED', 'SKIPPED']);
    expect(job.tasks[0].err_msg).toMatch(/no AOI of project .* has a finished scene asset/);
  });

  it('reports a project without AOIs in val_errors and creates the job FAILED', async () => {
    const project = newProject();
    const res = await startJob('wf-ndvi-timeseries', project);
    expect(res.statusCode).toBe(201);
    const job = res.json();
    expect(job).toMatchObject({ status: 'FAILED', progress: '0', time_taken: null });
    expect(job.finished_at).toBe(job.created_at);
    expect(job.val_errors).toEqual([
      {
        from: `project:${project}`,
        to: 'collect-aois',
        err: 'NO_AOIS',
        reason: expect.stringContaining('has no AOIs'),
        component_name: 'collect-aois',
      },
    ]);
    expect(taskStatuses(job)).toEqual(['SKIPPED', 'SKIPPED', 'SKIPPED']);
    expect(job.tasks[0].state_msg).toMatch(/did not pass validation/);
    expect(t.app.ctx.worker.pending()).toBe(0);
    expect((await getJob(job.id)).status).toBe('FAILED');
  });

  it('404s an unknown workflow', async () => {
    const res = await startJob('wf-nope', 'prj-demo-crops');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toMatch(/workflow "wf-nope"/);
  });

  it('requires project_id, of the organisation (400 path project_id, in query)', async () => {
    const missing = await startJob('wf-ndvi-timeseries', undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0]).toMatchObject({ path: 'project_id', in: 'query' });
    for (const p of ['', 'prj-other', 'prj-nope']) {
      const res = await startJob('wf-ndvi-timeseries', p);
      expect(res.statusCode, p).toBe(400);
      expect(res.json().error.details[0]).toMatchObject({ path: 'project_id', in: 'query' });
    }
    const extra = await t.call({
      method: 'POST',
      url: '/v0/workflows/wf-ndvi-timeseries/jobs?project_id=prj-demo-crops&x=1',
    });
    expect(extra.statusCode).toBe(400);
  });

  it('takes no body: an empty {} is tolerated, anything else is a 400', async () => {
    const project = await projectWithAois([[SCENES.cover.id]]);
    expect((await startJob('wf-cloud-mask', project, { payload: {} })).statusCode).toBe(201);
    for (const raw of ['{"project_id":"x"}', '[]', '"x"', '1', 'null']) {
      const res = await t.call({
        method: 'POST',
        url: `/v0/workflows/wf-cloud-mask/jobs?project_id=${project}`,
        headers: { 'content-type': 'application/json' },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    t.app.ctx.worker.drain();
  });

  it('requires an API key', async () => {
    expect((await startJob('wf-cloud-mask', 'prj-demo-crops', { key: null })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/v0/jobs/job_x', key: null })).statusCode).toBe(
      401,
    );
  });

  it('replays a create with the same Idempotency-Key: one job, one queued step', async () => {
    const project = await projectWithAois([[SCENES.cover.id]]);
    const headers = { 'idempotency-key': 'job-replay-1' };
    const first = await startJob('wf-cloud-mask', project, { headers });
    const again = await startJob('wf-cloud-mask', project, { headers });
    expect(first.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(count(t, 'SELECT count(*) AS n FROM jobs WHERE project_id = ?', project)).toBe(1);
    expect(t.app.ctx.worker.pending()).toBe(1);
    const conflict = await startJob('wf-ndvi-timeseries', project, { headers });
    expect(conflict.statusCode).toBe(409);
    t.app.ctx.worker.drain();
  });
});

describe('GET /v0/jobs/{job_id} (extension)', () => {
  it('404s an unknown job and a job of another organisation', async () => {
    const project = await projectWithAois([[SCENES.cover.id]]);
    const job = (await startJob('wf-cloud-mask', project)).json();
    expect((await t.call({ method: 'GET', url: '/v0/jobs/job_nope' })).statusCode).toBe(404);
    const other = await t.call({ method: 'GET', url: `/v0/jobs/${job.id}`, key: t.otherKey });
    expect(other.statusCode).toBe(404);
    // Nor can another organisation start a job on this project.
    const start = await startJob('wf-cloud-mask', project, { key: t.otherKey });
    expect(start.statusCode).toBe(400);
    t.app.ctx.worker.drain();
  });

  it('collects only the AOIs of its own organisation and project', async () => {
    const project = await projectWithAois([[SCENES.cover.id]]);
    await createAoi(t, { project_id: 'prj-other', item_ids: [SCENES.half.id] }, t.otherKey);
    t.app.ctx.worker.drain();
    const job = (await startJob('wf-cloud-mask', project)).json();
    t.app.ctx.worker.drain();
    const collected = decodeJson((await getJob(job.id)).tasks[0].result);
    expect(collected.aois).toHaveLength(1);
    expect(collected.aois[0].assets.map((a: Json) => a.item_id)).toEqual([SCENES.cover.id]);
  });
});

describe('job run across a restart', () => {
  it('resumes where it stopped: each task runs exactly once', async () => {
    const project = await projectWithAois([[SCENES.cover.id, SCENES.later.id]]);
    const created = (await startJob('wf-change-detection', project)).json();
    step(t); // RUNNING, first task started
    step(t); // first task done, second started
    const before = await getJob(created.id);
    expect(taskStatuses(before)).toEqual(['SUCCEEDED', 'RUNNING', 'PENDING']);

    t = await restart(t);
    t.app.ctx.worker.drain();

    const after = await getJob(created.id);
    expect(after).toMatchObject({ status: 'SUCCEEDED', progress: '100' });
    expect(after.tasks.map((x: Json) => x.id)).toEqual(before.tasks.map((x: Json) => x.id));
    expect(after.tasks[0].finished_at).toBe(before.tasks[0].finished_at);
    expect(after.exec_created_at).toBe(before.exec_created_at);
    expect(count(t, 'SELECT count(*) AS n FROM job_tasks WHERE job_id = ?', created.id)).toBe(3);
    expect(t.app.ctx.worker.pending()).toBe(0);
  });
});

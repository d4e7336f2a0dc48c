/**
 * "Download results" of a job (`jobs.results`): a job this client sent, finished at the service,
 * comes back as a file of its results package; a job not in the mirror, and working offline, are
 * refused in words without asking the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROPS } from './create-inputs';
import { connectTo, errorOf, startBackend, startService, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(20);
});
afterAll(async () => service?.close());

describe('jobs.results', () => {
  it('saves the package of a finished job, and refuses what it cannot ask for', async () => {
    const t = await connectTo(startBackend(), service);
    try {
      // The demo project has no AOI here: the service fails the job at once, so it has finished
      // (a failed job's package says why each task did not run).
      await t.call('outbox.enqueue', {
        kind: 'job',
        input: { workflow_id: 'wf-cloud-mask', project_id: CROPS },
      });
      expect(await t.call('outbox.flush', {})).toMatchObject({ sent: 1 });
      const [job] = await t.call('jobs.list');
      expect(job!.status).toBe('FAILED');

      const file = await t.call('jobs.results', { jobId: job!.id });
      expect(file).toMatchObject({
        fileName: `job-${job!.id}-results.json`,
        mediaType: 'application/json',
      });
      const pkg = JSON.parse(Buffer.from(file.base64, 'base64').toString('utf8')) as {
        job_id: string;
        status: string;
        tasks: Array<{ id: string; state_msg: string }>;
      };
      expect(file.bytes).toBe(Buffer.from(file.base64, 'base64').byteLength);
      expect(pkg).toMatchObject({ job_id: job!.id, status: 'FAILED' });
      expect(pkg.tasks.map((x) => x.id)).toEqual(job!.tasks?.map((x) => x.id));

      expect(await errorOf(t, 'jobs.results', { jobId: 'job-not-here' })).toMatchObject({
        code: 'invalid_argument',
        message: expect.stringMatching(/No job job-not-here in the mirror/),
      });
      expect(await errorOf(t, 'jobs.results', { jobId: '' })).toMatchObject({
        code: 'invalid_argument',
      });
      await t.call('settings.update', { workOffline: true });
      expect(await errorOf(t, 'jobs.results', { jobId: job!.id })).toMatchObject({
        code: 'working_offline',
      });
    } finally {
      await t.close();
    }
  });
});

/**
 * A finished job's results: against the real reference service (packaged once the job finished,
 * asked again while it runs), and against a hostile service on 127.0.0.1 (a package on another
 * origin never sees the API key; an oversized package is refused whether it says its length or
 * not; a package that never becomes ready, or fails, is said so).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aoiInput,
  startService,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { fetchJobResults, JobResultsError } from '../job-results';

let service: TestService;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service?.close());

/** A service of our own making: `answer` serves every request; `seen` keeps their headers. */
async function hostile(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Array<{ url: string; authorization: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const problemOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof JobResultsError) return e.problem;
    throw e;
  }
  throw new Error('the results were read');
};

/** Answers the PUT with `download`, and serves `/pkg` as `pkg` does. */
function packaging(download: object, pkg?: (res: http.ServerResponse) => void) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === 'PUT' && req.url?.endsWith('/download')) {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(download));
    } else if (req.url?.startsWith('/pkg') && pkg) pkg(res);
    else res.writeHead(404).end();
  };
}

describe('a job’s results', () => {
  it('are asked for while the job runs, then read from the signed package', async () => {
    const client = testClient(service.url, service.key);
    // A project with an AOI: its job passes validation and waits for the service's worker.
    await client.createAoi(await aoiInput(client, 'Results field'));
    const job = await client.createJob('wf-cloud-mask', { project_id: 'prj-demo-crops' });
    expect(job.status).toBe('QUEUED');
    // Still running, and no more waits allowed: not ready, said so.
    const ask = { workflowId: 'wf-cloud-mask', jobId: job.id };
    expect(await problemOf(fetchJobResults(client, ask, service.url, { waitsMs: [] }))).toBe(
      'not_ready',
    );
    // The job finishes during the first wait: the next ask finds the package ready.
    const results = await fetchJobResults(client, ask, service.url, {
      waitsMs: [1],
      sleep: async () => {
        service.server.app.ctx.worker.drain();
      },
    });
    expect(results.mediaType).toBe('application/json');
    expect(results.fileName).toBe(`job-${job.id}-results.json`);
    const pkg = JSON.parse(Buffer.from(results.bytes).toString('utf8')) as {
      job_id: string;
      tasks: Array<{ id: string }>;
    };
    expect(pkg.job_id).toBe(job.id);
    expect(pkg.tasks.map((t) => t.id)).toEqual(job.tasks?.map((t) => t.id));
    // A job under another workflow is not this service's to package.
    expect(
      await problemOf(
        fetchJobResults(client, { workflowId: 'wf-ndvi-timeseries', jobId: job.id }, service.url),
      ),
    ).toBe('not_offered');
  });

  it('never sends the API key to the package’s host, and refuses an oversized package', async () => {
    const pkgHost = await hostile((req, res) => {
      if (req.url === '/big-declared') {
        res.writeHead(200, { 'content-length': String(64 * 1024 * 1024) });
        res.write(Buffer.alloc(1024));
        return; // never finishes: the declared length alone is refused
      }
      if (req.url === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // 2 MB in chunks with no length: refused once past the bound, not read to the end.
        for (let i = 0; i < 32; i++) res.write(Buffer.alloc(64 * 1024, 0x20));
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"job_id":"j1","tasks":[]}');
    });
    const services: Array<Awaited<ReturnType<typeof hostile>>> = [];
    try {
      const read = async (signedUrl: string, maxBytes?: number) => {
        const svc = await hostile(
          packaging({ id: 'j1', status: 'SUCCESS', signed_url: signedUrl }),
        );
        services.push(svc);
        const client = createEoClient({ baseUrl: svc.url, apiKey: 'eok_secret_of_the_service' });
        const ask = { workflowId: 'wf-1', jobId: 'j1' };
        return fetchJobResults(client, ask, svc.url, { maxBytes, waitsMs: [] });
      };
      const ok = await read(`${pkgHost.url}/pkg?sig=abc`);
      expect(Buffer.from(ok.bytes).toString()).toBe('{"job_id":"j1","tasks":[]}');
      expect(await problemOf(read(`${pkgHost.url}/big-declared`))).toBe('too_large');
      expect(await problemOf(read(`${pkgHost.url}/big-chunked`, 1024 * 1024))).toBe('too_large');
      // The service itself saw its key; the package's host never did.
      expect(services[0]!.seen[0]!.authorization).toBe('eok_secret_of_the_service');
      expect(pkgHost.seen.map((s) => s.authorization)).toEqual([undefined, undefined, undefined]);
    } finally {
      await pkgHost.close();
      for (const s of services) await s.close();
    }
  });

  it('says when the package failed, has no address, or cannot be read', async () => {
    const cases: Array<[object, string, ((res: http.ServerResponse) => void)?]> = [
      [{ id: 'j1', status: 'failed' }, 'failed'],
      [{ id: 'j1', status: 'success' }, 'unreadable'],
      [{ id: 'j1', status: 'success', signed_url: 'ftp://x/pkg' }, 'unreadable'],
      [
        { id: 'j1', status: 'success', signed_url: '/pkg' },
        'unreadable',
        (r) => r.writeHead(410).end(),
      ],
      [
        { id: 'j1', status: 'success', signed_url: '/pkg' },
        'unreadable',
        (r) => {
          // A body cut short: the connection ends mid-package.
          r.writeHead(200, { 'content-length': '100' });
          r.write('{"job_id":');
          r.destroy();
        },
      ],
    ];
    for (const [download, problem, pkg] of cases) {
      const svc = await hostile(packaging(download, pkg));
      try {
        const client = createEoClient({ baseUrl: svc.url, apiKey: 'eok_k' });
        const got = await problemOf(
          fetchJobResults(client, { workflowId: 'wf-1', jobId: 'j1' }, svc.url, { waitsMs: [] }),
        );
        expect(got, JSON.stringify(download)).toBe(problem);
      } finally {
        await svc.close();
      }
    }
  });
});

/**
 * `eo sync` on a link that keeps dropping: a run interrupted in the catalog pass is followed by
 * one that resumes that pass first and does not walk the resources completed minutes ago again
 * (counted on the wire, in a proxy in front of the service); `--full` walks them all.
 */
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import { addCatalogCopies, startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
let proxy: FaultProxy;
const tmp = tempDir('cli-sync-resume');
/** What reached the service through the proxy, in order: `GET /v0/orders?...`. */
const requests: string[] = [];
/** Called for every request (the test aborts a run from here). */
let onRequest: (line: string) => void = () => undefined;

beforeAll(async () => {
  service = await startService();
  addCatalogCopies(service, 1500);
  proxy = await startFaultProxy(service.url, (req) => {
    // A catalog page's offset is in its body.
    const offset = req.body ? (JSON.parse(req.body) as { offset?: number }).offset : undefined;
    const line = `${req.method} ${req.url}${offset === undefined ? '' : ` offset=${offset}`}`;
    requests.push(line);
    onRequest(line);
    return 'pass';
  });
});
afterAll(async () => {
  await proxy?.close();
  await service?.close();
  tmp.remove();
});

const isCatalogPage = (line: string) => line.startsWith('POST /v0/catalogs/search');
const resourceOf = (line: string) => line.split(' ')[1]!.split('?')[0]!;
const REFERENCE_READS = [
  '/v0/projects',
  '/v0/bandsets',
  '/v0/satellites',
  '/v0/workflows',
  '/v0/stores',
];

/** Runs `eo sync`, aborted (the link "drops") once `abortAfter` catalog pages went out. */
async function run(
  env: Record<string, string>,
  flags: string[],
  abortAfter = Infinity,
): Promise<{ code: number; stdout: string; stderr: string; sent: string[] }> {
  const controller = new AbortController();
  let catalogPages = 0;
  onRequest = (line) => {
    if (isCatalogPage(line) && ++catalogPages === abortAfter) controller.abort();
  };
  requests.length = 0;
  // One page at a time: the test reads the order requests leave in, and read-ahead sends the
  // next pages before the checkpointed one arrives (their order on the wire is the network's).
  const args = ['sync', '--page-size', '100', '--batch-records', '100', '--read-ahead', 'off'];
  const r = await eo([...args, ...flags], {
    env,
    signal: controller.signal,
  });
  onRequest = () => undefined;
  return { ...r, sent: [...requests] };
}

const resumedAt = (stderr: string) => {
  const m = /next sync resumes catalogs at list 0, offset (\d+)/.exec(stderr);
  if (!m) throw new Error(`no resume point in: ${stderr}`);
  return Number(m[1]);
};

describe('eo sync on a link that drops', () => {
  it('resumes the interrupted catalog pass first and skips resources completed just now', async () => {
    const db = path.join(tmp.dir, 'mirror.db');
    const env = { EO_URL: proxy.url, EO_API_KEY: service.key, EO_DB: db };

    // Run 1: every resource up to the catalogs, then the link drops after 5 catalog pages.
    const first = await run(env, [], 5);
    expect(first.code).toBe(1);
    const checkpoint = resumedAt(first.stderr);
    expect(checkpoint).toBeGreaterThan(0);

    // Run 2: the catalog pass goes on where it stopped; no other list is fetched again (the
    // five small reference lists are read first at every sync, as the desktop reads them).
    const second = await run(env, []);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.sent.slice(0, 5).map(resourceOf)).toEqual(REFERENCE_READS);
    expect(second.sent[5]).toBe(`POST /v0/catalogs/search offset=${checkpoint}`);
    expect(second.sent.slice(5).filter((l) => !isCatalogPage(l))).toEqual([]);
    const report = JSON.parse(second.stdout) as { resources: Array<{ state: string }> };
    expect(report.resources.map((r) => r.state)).toEqual(report.resources.map(() => 'complete'));
    const sqlite = new Database(db, { readonly: true });
    try {
      const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
      expect(mirrorSnapshot(sqlite)).toEqual(await serviceSnapshot(direct));
    } finally {
      sqlite.close();
    }

    // --full walks every resource again, the interrupted pass still first.
    const third = await run(env, ['--full'], 3);
    expect(third.code).toBe(1);
    const again = resumedAt(third.stderr);
    const fourth = await run(env, ['--full']);
    expect(fourth.code).toBe(0);
    expect(fourth.sent[5]).toBe(`POST /v0/catalogs/search offset=${again}`);
    const walked = new Set(fourth.sent.map(resourceOf));
    for (const p of ['/v0/orders', '/v0/order-items', '/v0/aois', '/v0/indices'])
      expect(walked).toContain(p);
    expect([...walked].some((p) => /^\/v0\/aois\/[^/]+\/assets$/.test(p))).toBe(true);
  });
});

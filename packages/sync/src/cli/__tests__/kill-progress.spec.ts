/**
 * `eo sync` on a link that drops every few pages, killed with -9 each time, with no timer deciding
 * when: the proxy in front of the service holds the run's k-th request open (the process waits
 * on it, everything before it committed), the test reads where the mirror stands, then kills the
 * process. Every run must make progress (records committed across the passes grow strictly; a
 * resource completed by an earlier run is never asked for again), must begin exactly where the
 * run before it was cut off (after the four small reference reads), and must leave the database
 * intact; the run that is let finish makes the mirror equal to the service.
 */
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy, type FaultProxy, type ProxyRequest } from '../../__tests__/fault-proxy';
import { mirrorSnapshot, serviceSnapshot } from '../../__tests__/mirror-snapshot';
import { addCatalogCopies, startService, type TestService } from '../../pull/__tests__/service';
import { spawnEo } from './spawn-eo';

/**
 * The request each killed run is cut at: after the five reference reads, 1 to 3 of the passes'
 * get through (a dropping link's few seconds).
 */
const CUT_AT = [7, 8, 9];
const KILLED_RUNS = 6;
const REFERENCE_READS = new Set([
  '/v0/projects',
  '/v0/bandsets',
  '/v0/satellites',
  '/v0/workflows',
  '/v0/stores',
]);

let service: TestService;
let proxy: FaultProxy;
const tmp = tempDir('cli-kill-progress');
/** Decides each request's fate (set per run). */
let choose: (req: ProxyRequest) => 'pass' | 'hang' = () => 'pass';

beforeAll(async () => {
  service = await startService();
  // About 600 catalog records: 13 pages, more than the killed runs get through.
  addCatalogCopies(service, 300);
  proxy = await startFaultProxy(service.url, (req) => choose(req));
});
afterAll(async () => {
  await proxy?.close();
  await service?.close();
  tmp.remove();
});

/** A request as the test compares them: method, path and query, and a search's offset. */
function describeRequest(req: ProxyRequest): string {
  const offset = req.body ? (JSON.parse(req.body) as { offset?: number }).offset : undefined;
  return `${req.method} ${req.url}${offset === undefined ? '' : ` offset=${offset}`}`;
}
const pathOf = (line: string) => line.split(' ')[1]!.split('?')[0]!;

/** The resource a request pages (assets are per AOI). */
function resourceOf(line: string): string {
  const p = pathOf(line);
  if (/^\/v0\/aois\/[^/]+\/assets$/.test(p)) return 'assets';
  return (
    {
      '/v0/orders': 'orders',
      '/v0/order-items': 'orderItems',
      '/v0/aois': 'aois',
      '/v0/indices': 'indices',
      '/v0/catalogs/search': 'catalogs',
    }[p] ?? p
  );
}

interface Standing {
  integrity: string;
  /** Records committed by the current passes, all resources together. */
  committed: number;
  /** Resources whose current pass completed. */
  finished: string[];
}

function standing(file: string): Standing {
  const sqlite = new Database(file, { readonly: true });
  try {
    const integrity = (sqlite.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ');
    const rows = sqlite
      .prepare('SELECT resource, seen, finished_at_us FROM sync_state ORDER BY resource')
      .all() as Array<{ resource: string; seen: number; finished_at_us: number | null }>;
    return {
      integrity,
      committed: rows.reduce((sum, r) => sum + r.seen, 0),
      finished: rows.filter((r) => r.finished_at_us !== null).map((r) => r.resource),
    };
  } finally {
    sqlite.close();
  }
}

describe('eo sync killed with -9 every few requests', () => {
  it('progresses on every run, resumes where it was cut, and ends equal to the service', async () => {
    const db = path.join(tmp.dir, 'mirror.db');
    // Pages of 50 records, a commit per page, one request at a time: the k-th request goes out
    // only once every page before it is committed.
    const args = ['sync', '--db', db, '--url', proxy.url, '--page-size', '50'];
    args.push('--batch-records', '50', '--read-ahead', 'off', '--imagery', 'off');
    args.push('--progress', 'lines');
    const env = { EO_API_KEY: service.key };
    const log: string[] = [];
    const context = () => log.join('\n');
    let before: Standing = { integrity: 'ok', committed: 0, finished: [] };
    let cutAt: string | null = null;

    for (let run = 0; run < KILLED_RUNS; run++) {
      const k = CUT_AT[run % CUT_AT.length]!;
      const sent: string[] = [];
      let held!: (line: string) => void;
      const holding = new Promise<string>((resolve) => (held = resolve));
      choose = (req) => {
        const line = describeRequest(req);
        sent.push(line);
        if (sent.length < k) return 'pass';
        if (sent.length === k) held(line);
        return 'hang';
      };
      const p = spawnEo(args, env);
      const cut = await Promise.race([
        holding,
        p.exited.then((e) => {
          throw new Error(`run ${run} ended (${JSON.stringify(e)}) before its request ${k}:
${p.stderr()}\n${context()}`);
        }),
      ]);
      // The process waits on `cut`; what it committed is what the kill leaves.
      const atKill = standing(db);
      p.child.kill('SIGKILL');
      expect((await p.exited).signal).toBe('SIGKILL');
      const after = standing(db);
      log.push(
        `run ${run}: cut at request ${k} (${cut}); committed ${before.committed} -> ${after.committed}; finished ${after.finished.join(',') || '-'}; sent ${sent.join(' | ')}`,
      );
      expect(after, context()).toEqual(atKill);
      expect(after.integrity, context()).toBe('ok');
      // Progress on every run.
      expect(after.committed, context()).toBeGreaterThan(before.committed);
      // The reference reads, then exactly the request the previous run was cut at.
      const passes = sent.filter((l) => !REFERENCE_READS.has(pathOf(l)));
      expect(sent.slice(0, 5).map(pathOf).sort(), context()).toEqual([...REFERENCE_READS].sort());
      if (cutAt !== null) expect(passes[0], context()).toBe(cutAt);
      // Nothing completed before is walked again.
      for (const line of passes)
        expect(before.finished, `${line}\n${context()}`).not.toContain(resourceOf(line));
      cutAt = cut;
      before = after;
    }
    // Killed runs got every small resource through and into the catalog.
    expect(before.finished.length, context()).toBeGreaterThanOrEqual(3);

    choose = () => 'pass';
    const last = spawnEo(args, env);
    expect(await last.exited, `${last.stderr()}\n${context()}`).toEqual({ code: 0, signal: null });
    const sqlite = new Database(db, { readonly: true });
    try {
      const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
      expect(mirrorSnapshot(sqlite)).toEqual(await serviceSnapshot(direct));
    } finally {
      sqlite.close();
    }
  }, 480_000);
});

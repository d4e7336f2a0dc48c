/**
 * kill -9 of `eo sync` at random points, over several runs on the same database: after each
 * kill the database passes `PRAGMA integrity_check`, the next run resumes the catalog pass from
 * its checkpoint (the first page it asks for is the checkpoint's), and once a run completes the
 * mirror is identical to the service.
 *
 * The kill points come from a seeded generator; the seed is printed, and EO_KILL_SEED=<seed>
 * replays the same plan (the timing of a loaded machine still varies).
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import { mirrorSnapshot, serviceSnapshot, sizes } from '../../__tests__/mirror-snapshot';
import { addCatalogCopies, startService, type TestService } from '../../pull/__tests__/service';
import { spawnEo } from './spawn-eo';

const SEED = Number(process.env.EO_KILL_SEED ?? Date.now() % 1_000_000_007);
const KILLED_RUNS = 8;
/** Catalog records added to the demo seed's, so that the catalog pass spans several runs. */
const CATALOG_COPIES = 2700;

/** Deterministic [0, 1) sequence (a small LCG). */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

let service: TestService;
/** Pass-through proxy recording the offset of each catalog page asked for, per run. */
let proxy: FaultProxy;
const pagesAsked: Array<{ run: number; offset: number }> = [];
let currentRun = -1;
const tmp = tempDir('cli-kill');

beforeAll(async () => {
  service = await startService();
  addCatalogCopies(service, CATALOG_COPIES);
  proxy = await startFaultProxy(service.url, (req) => {
    if (req.url.endsWith('/catalogs/search')) {
      const body = JSON.parse(req.body || '{}') as { offset?: number; ids?: unknown };
      // Requests with ids are the pre-sweep check, not pages of the pass.
      if (!body.ids) pagesAsked.push({ run: currentRun, offset: body.offset ?? 0 });
    }
    return 'pass';
  });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

interface CatalogState {
  pass_id: string;
  checkpoint: number;
  part: number;
  finished_at_us: number | null;
}

/** integrity_check of the file as the kill left it, and where the catalog pass stands. */
function inspect(file: string): { integrity: string; catalogs: CatalogState | undefined } {
  const sqlite = new Database(file);
  try {
    const integrity = (sqlite.pragma('integrity_check') as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .join('; ');
    const hasState = sqlite
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_state'")
      .get();
    const catalogs = hasState
      ? (sqlite
          .prepare(
            "SELECT pass_id, checkpoint, part, finished_at_us FROM sync_state WHERE resource = 'catalogs'",
          )
          .get() as CatalogState | undefined)
      : undefined;
    return { integrity, catalogs };
  } finally {
    sqlite.close();
  }
}

describe('kill -9 during eo sync', () => {
  it(
    'at random points over many runs: the database stays intact, each run resumes, the end is identical to the service',
    { timeout: 180_000 },
    async () => {
      console.info(`kill -9 test: seed ${SEED} (replay with EO_KILL_SEED=${SEED})`);
      const rand = seeded(SEED);
      const db = path.join(tmp.dir, 'mirror.db');
      const args = [
        'sync',
        '--db',
        db,
        '--url',
        proxy.url,
        // Small pages and batches: a commit (and a checkpoint) every 100 records.
        '--page-size',
        '50',
        '--batch-records',
        '100',
        '--progress',
        'lines',
        // Full passes every run (an incremental re-sync of this catalog ends before any kill).
        '--full',
      ];
      const env = { EO_API_KEY: service.key };
      const log: string[] = [];
      const context = () => `seed ${SEED}; ${log.join('; ')}`;
      let resumedFromCheckpoint = 0;

      /** Runs one sync; `kill` decides when to SIGKILL it (undefined: let it finish). */
      async function run(
        index: number,
        kill: ((p: ReturnType<typeof spawnEo>) => Promise<void>) | undefined,
      ) {
        const before = fs.existsSync(db) ? inspect(db).catalogs : undefined;
        currentRun = index;
        const p = spawnEo(args, env);
        if (kill) {
          await kill(p);
          p.child.kill('SIGKILL');
        }
        const end = await p.exited;
        const asked = pagesAsked.filter((a) => a.run === index).map((a) => a.offset);
        const after = fs.existsSync(db) ? inspect(db) : undefined;
        log.push(
          `run ${index}: ${end.signal ?? `exit ${end.code}`}, catalog pages from ${asked.length > 0 ? Math.min(...asked) : '-'}, checkpoint ${before?.checkpoint ?? '-'} -> ${after?.catalogs?.checkpoint ?? '-'}`,
        );
        if (end.signal === null) expect(end.code, `${context()}\n${p.stderr()}`).toBe(0);
        if (after) expect(after.integrity, context()).toBe('ok');
        // An interrupted pass with committed pages: this run starts at its checkpoint (its lowest
        // page; with read-ahead the next pages may reach the proxy first).
        if (before && before.finished_at_us === null && before.checkpoint > 0 && asked.length > 0) {
          expect(Math.min(...asked), context()).toBe(before.checkpoint);
          expect(after?.catalogs?.pass_id, context()).toBe(before.pass_id);
          resumedFromCheckpoint++;
        }
        return end;
      }

      for (let i = 0; i < KILLED_RUNS; i++) {
        if (i % 3 === 0) {
          // Anywhere: starting up, migrating, syncing the small resources or the catalog.
          const delayMs = 300 + Math.floor(rand() * 3700);
          log.push(`run ${i}: kill ${delayMs} ms after start`);
          await run(i, (p) => Promise.race([sleep(delayMs), p.exited]).then(() => undefined));
        } else {
          // In the catalog pass, after a few of its commits, a moment later.
          const commits = 1 + Math.floor(rand() * 4);
          const jitterMs = Math.floor(rand() * 150);
          log.push(`run ${i}: kill ${jitterMs} ms after catalog commit ${commits}`);
          await run(i, async (p) => {
            let seen = 0;
            await p.waitForLine((l) => /^catalogs \d+\/\d+$/.test(l) && ++seen >= commits);
            await sleep(jitterMs);
          });
        }
      }
      const last = await run(KILLED_RUNS, undefined);
      expect(last, context()).toEqual({ code: 0, signal: null });
      expect(resumedFromCheckpoint, context()).toBeGreaterThan(0);

      const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
      const expected = await serviceSnapshot(direct);
      expect(sizes(expected).catalogs).toBeGreaterThan(CATALOG_COPIES);
      const sqlite = new Database(db, { readonly: true });
      try {
        expect(mirrorSnapshot(sqlite), context()).toEqual(expected);
      } finally {
        sqlite.close();
      }
    },
  );
});

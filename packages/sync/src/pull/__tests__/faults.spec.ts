/**
 * A sync through a fault-injecting proxy: connections reset before a request and in the middle
 * of a page's body, bursts of 503s longer than the client's retries, requests never answered
 * (timeouts). Each failure stops the sync with the error recorded; the next `sync()` resumes,
 * and once a sync completes the mirror holds exactly what the service lists.
 */
import path from 'node:path';
import { createEoClient, READ_AHEAD_MAX } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy, type Fault } from '../../__tests__/fault-proxy';
import { mirrorSnapshot, serviceSnapshot, sizes } from '../../__tests__/mirror-snapshot';
import { createSyncEngine, RESOURCES } from '../engine';
import { describeSyncError } from '../errors';
import { startService, type TestService } from './service';

let service: TestService;
const tmp = tempDir('pull-faults');
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

/** Deterministic [0, 1) sequence (a small LCG): the same faults in the same order each run. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PAGE_SIZE = 10;
const BATCH_RECORDS = 30;
/** The client's attempts per request: a fault on one only is retried, not a sync failure. */
const ATTEMPTS = 2;
/**
 * Requests refused on each of the client's attempts the first time they are asked (503, both
 * attempts), so that whatever order requests arrive in, syncs stop at least three times, in
 * three lists, once in the middle of one:
 *
 * - the orders' first page: a stop before anything of the list is in (checkpoint 0);
 * - the indices' first page: a stop in a later resource, after the ones before it completed;
 * - a catalog page far enough in that the pages before it were handed over and committed
 *   whatever the read-ahead's depth (it asks at most READ_AHEAD_MAX pages ahead of the one the
 *   walk holds, so the pages of two batches of BATCH_RECORDS are in before it is asked: offset
 *   120 today), and well inside the list (over 250 records, asserted below).
 *
 * A walk that asks one of these cannot complete before asking it again, and is refused again:
 * each stops the walk it is first asked in (or a fault beside it does, at the same point).
 */
const REFUSED_ON_EVERY_ATTEMPT = [
  `GET /v0/orders?offset=0&limit=${PAGE_SIZE}`,
  `GET /v0/indices?offset=0&limit=${PAGE_SIZE}`,
  `POST /v0/catalogs/search ${JSON.stringify({
    offset: (2 * (BATCH_RECORDS / PAGE_SIZE) + 1 + READ_AHEAD_MAX) * PAGE_SIZE,
    limit: PAGE_SIZE,
  })}`,
];

describe('sync through faults', () => {
  it('resets mid-page, 503 bursts and timeouts: after the resumed syncs, the mirror is identical to the service', async () => {
    const rand = seeded(7);
    // Every sixth request gets the next fault of this cycle (so each kind happens), the others
    // a random one now and then. Which request of a list a random fault lands on depends on
    // the order requests arrive in (the read-ahead keeps several in flight): the stops the
    // assertions need are forced by what is asked (REFUSED_ON_EVERY_ATTEMPT).
    const cycle = ['cut', 'burst', 'hang', 'reset'] as const;
    let requests = 0;
    let burst = 0;
    const refusals = new Map(REFUSED_ON_EVERY_ATTEMPT.map((r) => [r, 0]));
    const proxy = await startFaultProxy(service.url, (req): Fault => {
      const key = req.body ? `${req.method} ${req.url} ${req.body}` : `${req.method} ${req.url}`;
      const refused = refusals.get(key);
      if (refused !== undefined && refused < ATTEMPTS) {
        refusals.set(key, refused + 1);
        return { status: 503 };
      }
      if (burst > 0) {
        burst--;
        return { status: 503 };
      }
      const n = requests++;
      const r = rand();
      const kind =
        n % 6 === 3
          ? cycle[Math.floor(n / 6) % cycle.length]!
          : r < 0.06
            ? 'cut'
            : r < 0.09
              ? 'reset'
              : r < 0.12
                ? 'burst'
                : 'pass';
      if (kind !== 'burst') return kind;
      // Longer than the client's two attempts: the sync itself fails and must resume.
      burst = 1 + Math.floor(rand() * 3);
      return { status: 503 };
    });
    const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
    try {
      const client = createEoClient({
        baseUrl: proxy.url,
        apiKey: service.key,
        timeoutMs: 500,
        retry: { maxAttempts: ATTEMPTS, baseDelayMs: 1, maxDelayMs: 5 },
      });
      // Small pages and batches: many requests (so many faults) and many checkpoints.
      const engine = createSyncEngine({
        db,
        client,
        pageSize: PAGE_SIZE,
        batchRecords: BATCH_RECORDS,
      });
      const failures: string[] = [];
      let resumedMidList = 0;
      for (let attempt = 0; ; attempt++) {
        expect(attempt, `still failing after: ${failures.join(', ')}`).toBeLessThan(60);
        try {
          await engine.sync();
          break;
        } catch (e) {
          const why = describeSyncError(e);
          failures.push(why.status ? `${why.kind} ${why.status}` : why.kind);
          // Resources run in RESOURCES order: the first one unfinished is where it stopped.
          const statuses = engine.status();
          const stopped = RESOURCES.map((r) => statuses.find((s) => s.resource === r)).find(
            (s) => s && s.finishedAtUs === null,
          )!;
          expect(stopped.lastError).toEqual(why);
          if (stopped.checkpoint > 0) resumedMidList++;
        }
      }
      // The faults did happen, and some stopped the sync in the middle of a list.
      expect(proxy.counts.cut).toBeGreaterThan(0);
      expect(proxy.counts.reset).toBeGreaterThan(0);
      expect(proxy.counts.status).toBeGreaterThan(0);
      expect(proxy.counts.hang).toBeGreaterThan(0);
      expect(failures.length).toBeGreaterThan(2);
      expect([...refusals.values()]).toEqual(REFUSED_ON_EVERY_ATTEMPT.map(() => ATTEMPTS));
      expect(resumedMidList).toBeGreaterThan(0);

      for (const s of engine.status()) {
        expect(s.finishedAtUs, s.resource).not.toBeNull();
        expect(s.lastError, s.resource).toBeNull();
      }
      const direct = createEoClient({ baseUrl: service.url, apiKey: service.key });
      const expected = await serviceSnapshot(direct);
      const mirrored = mirrorSnapshot(db.sqlite);
      expect(sizes(expected).catalogs).toBeGreaterThan(250);
      expect(sizes(expected).assets).toBeGreaterThan(0);
      expect(sizes(mirrored)).toEqual(sizes(expected));
      expect(mirrored).toEqual(expected);
    } finally {
      db.close();
      await proxy.close();
    }
  });
});

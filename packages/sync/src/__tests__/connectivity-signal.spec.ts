/**
 * The watcher's `checkSoon()` (the operating system's network signals) against the real service
 * behind a counting proxy, on a manual clock: when a signal moves the next check, how signals
 * coalesce, and that a flapping link gets no more than one check per gap. The clock only says
 * when checks start; the checks themselves are real requests, awaited with `idle()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchConnectivity, type WatcherClock } from '../connectivity-watcher';
import { createOutbox } from '../outbox/outbox';
import { startFaultProxy, type FaultProxy } from './fault-proxy';
import {
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../outbox/__tests__/service';

const HOUR = 3_600_000;
const SETTLE = 1_000;
const GAP = 5_000;

/** Timers that run only when the test moves time on. */
function manualClock(): WatcherClock & { advance(ms: number): void; pending(): number[] } {
  let now = 0;
  let seq = 0;
  const tasks = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout(run, ms) {
      tasks.set(++seq, { at: now + ms, run });
      return seq;
    },
    clearTimeout: (handle) => void tasks.delete(handle as number),
    /** Moves time on by `ms`, running what falls due, in time order. */
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...tasks].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        tasks.delete(next[0]);
        now = next[1].at;
        next[1].run();
      }
      now = end;
    },
    /** How far away each scheduled timer is. */
    pending: () => [...tasks.values()].map((t) => t.at - now),
  };
}

let svc: TestService;
let proxy: FaultProxy;
/** Checks that reached the proxy: each starts with its `GET /ping`. */
let checks = 0;
let reachable = true;
beforeAll(async () => {
  svc = await startService();
  proxy = await startFaultProxy(svc.url, (req) => {
    if (req.url === '/ping') checks++;
    return reachable ? 'pass' : 'reset';
  });
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
});

function watcherOn(clock: ReturnType<typeof manualClock>, firstCheckAfter?: Promise<void>) {
  const local = tempDatabase();
  const client = testClient(proxy.url, svc.key);
  const outbox = createOutbox({ db: local.sqlite, client });
  const watcher = watchConnectivity({
    client,
    outbox,
    intervalMs: HOUR,
    offlineIntervalMs: HOUR,
    timeoutMs: 2_000,
    signalSettleMs: SETTLE,
    signalGapMs: GAP,
    firstCheckAfter,
    clock,
  });
  return {
    watcher,
    outbox,
    /** Moves the clock and waits for any check it started (a real request). */
    async advance(ms: number) {
      clock.advance(ms);
      await watcher.idle();
    },
    close() {
      watcher.stop();
      local.remove();
    },
  };
}

/** A watcher whose first check waits for a gate the test opens (the app's first screen shown). */
function gatedWatcher() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  const clock = manualClock();
  const w = watcherOn(clock, promise);
  return {
    clock,
    w,
    /** Opens the gate and lets the watcher see it. */
    async open() {
      open();
      await promise;
    },
  };
}

describe('firstCheckAfter: the first check waits for the first screen', () => {
  it('nothing is asked until it settles, then the first check comes at once', async () => {
    reachable = true;
    const { clock, w, open } = gatedWatcher();
    try {
      const before = checks;
      await w.advance(60_000);
      expect(clock.pending()).toEqual([]);
      expect(checks).toBe(before);
      expect(w.watcher.last).toBeUndefined();

      await open();
      expect(clock.pending()).toEqual([0]);
      await w.advance(0);
      expect(checks).toBe(before + 1);
      expect(w.watcher.last?.status).toBe('online');
      expect(clock.pending()).toEqual([HOUR]);
    } finally {
      w.close();
    }
  });

  it('a network signal before it is honoured; the gate then adds no check', async () => {
    reachable = true;
    const { clock, w, open } = gatedWatcher();
    try {
      const before = checks;
      expect(w.watcher.checkSoon()).toBe(true);
      expect(clock.pending()).toEqual([SETTLE]);
      await w.advance(SETTLE);
      expect(checks).toBe(before + 1);

      await open();
      expect(clock.pending()).toEqual([HOUR]);
    } finally {
      w.close();
    }
  });

  it('stopped before it settles: no check, nothing scheduled', async () => {
    const { clock, w, open } = gatedWatcher();
    w.close();
    await open();
    expect(clock.pending()).toEqual([]);
  });
});

describe('checkSoon: network signals', () => {
  it('a signal brings the next check forward to the settle time; a burst of signals makes one check', async () => {
    reachable = true;
    const clock = manualClock();
    const w = watcherOn(clock);
    try {
      await w.advance(0);
      const start = checks;
      expect(w.watcher.last?.status).toBe('online');
      expect(clock.pending()).toEqual([HOUR]);

      await w.advance(60_000);
      expect(w.watcher.checkSoon()).toBe(true);
      expect(clock.pending()).toEqual([SETTLE]);
      // A flapping link: 20 more signals while the check waits change nothing.
      for (let i = 0; i < 20; i++) {
        expect(w.watcher.checkSoon()).toBe(false);
        await w.advance(10);
      }
      await w.advance(SETTLE - 200 - 1);
      expect(checks).toBe(start);
      await w.advance(1);
      expect(checks).toBe(start + 1);
      // Back to the interval once the check is done.
      expect(clock.pending()).toEqual([HOUR]);

      // Signals right after a check: the next one waits for the gap, not just the settle time.
      expect(w.watcher.checkSoon()).toBe(true);
      expect(clock.pending()).toEqual([GAP]);
      await w.advance(GAP - 1);
      expect(checks).toBe(start + 1);
      await w.advance(1);
      expect(checks).toBe(start + 2);
    } finally {
      w.close();
    }
  });

  it('a signal during a check is followed by another check (its answer may predate the change)', async () => {
    reachable = true;
    const clock = manualClock();
    const w = watcherOn(clock);
    try {
      clock.advance(0); // the first check is in flight
      expect(w.watcher.checkSoon()).toBe(true);
      expect(w.watcher.checkSoon()).toBe(false);
      await w.watcher.idle();
      expect(clock.pending()).toEqual([GAP]);
      const before = checks;
      await w.advance(GAP);
      expect(checks).toBe(before + 1);
      expect(clock.pending()).toEqual([HOUR]);
    } finally {
      w.close();
    }
  });

  it('the service back: the signal’s check flushes the outbox at once, not at the next tick an hour away', async () => {
    reachable = false;
    const clock = manualClock();
    const w = watcherOn(clock);
    try {
      const entry = w.outbox.enqueue('order', orderInput('flushed-on-a-signal'));
      await w.advance(0);
      expect(w.watcher.last?.status).toBe('offline');
      expect(clock.pending()).toEqual([HOUR]);

      reachable = true;
      await w.advance(10_000);
      expect(w.watcher.checkSoon()).toBe(true);
      await w.advance(SETTLE);
      expect(w.watcher.last?.status).toBe('online');
      expect(w.outbox.get(entry.id)?.state).toBe('sent');
    } finally {
      w.close();
    }
  });

  it('stopped: a signal schedules nothing', async () => {
    const clock = manualClock();
    const w = watcherOn(clock);
    await w.advance(0);
    w.close();
    expect(w.watcher.checkSoon()).toBe(false);
    expect(clock.pending()).toEqual([]);
  });
});

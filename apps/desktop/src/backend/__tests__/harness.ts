/**
 * Test parts: the real reference service on 127.0.0.1 (seeded with the demo org) and a backend
 * on a temp data dir, with every result checked against the contract's output schemas.
 */
import { DEMO } from '@eo/fixtures';
import { createApiKey, seedDemo, startServer, type RunningServer } from '@eo/reference-service';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  contract,
  type EventName,
  type Input,
  type Method,
  type Output,
  type SyncStatus,
} from '../../shared/contract';
import { createBackend, type Backend, type BackendOptions } from '../backend';
import { DEFAULT_SETTINGS, openDesktopStore, type StoredSettings } from '../local-store';
import { memorySecrets, type Secrets } from '../secrets';

/** How long a test waits for an event: well under the desktop project's 60 s test timeout. */
export const WAIT_MS = 20_000;

/**
 * Polls `ready` (no fixed sleeps) until it is truthy; rejects after `timeoutMs` saying `what`
 * never happened.
 */
export async function until<T>(
  what: string,
  ready: () => T | Promise<T>,
  timeoutMs = WAIT_MS,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await ready();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface TestService {
  url: string;
  key: string;
  server: RunningServer;
  close(): Promise<void>;
}

export async function startService(scenes = 3000): Promise<TestService> {
  const dataDir = tempDir('eo-desktop-service-');
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes });
  // A key of our own (the demo key is only returned by the first seed).
  const key = createApiKey(
    server.app.ctx.sqlite,
    { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'test' },
    Date.now(),
  );
  return {
    url: server.url,
    key,
    server,
    close: async () => {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestBackend {
  backend: Backend;
  secrets: Secrets;
  dataDir: string;
  events: Array<{ event: EventName; payload: unknown }>;
  /** Calls through dispatch (validation included); throws the ContractError data on failure. */
  call<M extends Method>(method: M, input?: Input<M>): Promise<Output<M>>;
  /** The raw dispatch result, for rejection tests. */
  raw(method: unknown, input: unknown): ReturnType<Backend['dispatch']>;
  /**
   * The next `event` whose payload passes `pred`; rejects after `timeoutMs` (default
   * WAIT_MS, well under the test timeout) naming the event, `what` was awaited and what arrived.
   */
  waitFor(
    event: EventName,
    pred?: (payload: unknown) => boolean,
    opts?: { what?: string; timeoutMs?: number },
  ): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Settings stored before a test backend starts (unless the data dir has some): no pictures,
 * since rendering the thumbnails of 3000 scenes takes the service half a minute. Tests of
 * imagery ask for it (imagery-sync.spec.ts); `null` keeps the app's defaults.
 */
export const TEST_SETTINGS: Partial<StoredSettings> = { imagery: 'off' };

/** Stores `settings` over the defaults in a data dir that has no desktop store yet. */
export function presetSettings(dataDir: string, settings: Partial<StoredSettings>): void {
  if (fs.existsSync(path.join(dataDir, 'desktop.sqlite'))) return;
  const store = openDesktopStore(dataDir);
  store.saveSettings({ ...DEFAULT_SETTINGS, ...settings });
  store.close();
}

export function startBackend(
  opts: Partial<BackendOptions> & { settings?: Partial<StoredSettings> | null } = {},
): TestBackend {
  const dataDir = opts.dataDir ?? tempDir('eo-desktop-backend-');
  const preset = opts.settings === undefined ? TEST_SETTINGS : opts.settings;
  if (preset) presetSettings(dataDir, preset);
  const secrets = opts.secrets ?? memorySecrets();
  const backend = createBackend({
    dataDir,
    secrets,
    mode: 'browser',
    // No checks of their own during a test (offline neither): tests ask with connectivity.check.
    connectivityIntervalMs: 60_000,
    connectivityOfflineIntervalMs: 60_000,
    connectivityTimeoutMs: 2_000,
    // Tests start their syncs themselves (first-connect sync: first-sync.spec.ts).
    syncOnFirstConnect: false,
    dispatch: { validateOutput: true },
    ...opts,
  });
  const events: TestBackend['events'] = [];
  const waiters: Array<{
    event: EventName;
    pred: (p: unknown) => boolean;
    resolve: (p: unknown) => void;
  }> = [];
  backend.events.onAny((event, payload) => {
    events.push({ event, payload });
    for (const w of [...waiters]) {
      if (w.event === event && w.pred(payload)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(payload);
      }
    }
  });
  return {
    backend,
    secrets,
    dataDir,
    events,
    async call(method, input) {
      const r = await backend.dispatch(method, input);
      if (!r.ok) throw Object.assign(new Error(r.error.message), r.error);
      // validateOutput is on; parse once more so the test sees the contract's output type.
      return contract[method].output.parse(r.value) as Output<typeof method>;
    },
    raw: (method, input) => backend.dispatch(method, input),
    waitFor(event, pred = () => true, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? WAIT_MS;
      const waiter = { event, pred, resolve: (_: unknown) => {} };
      const since = events.length;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          const seen = events.slice(since).filter((e) => e.event === event);
          reject(
            new Error(
              `no ${event}${opts.what ? ` (${opts.what})` : ''} within ${timeoutMs} ms; ${event} seen meanwhile: ${JSON.stringify(seen.map((e) => e.payload)).slice(0, 600)}`,
            ),
          );
        }, timeoutMs);
        waiter.resolve = (p) => {
          clearTimeout(timer);
          resolve(p);
        };
        waiters.push(waiter);
      });
    },
    async close() {
      await backend.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Configures `t` for `service` and resolves once the backend says it is online. */
export async function connectTo(
  t: TestBackend,
  service: Pick<TestService, 'url' | 'key'>,
): Promise<TestBackend> {
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
  );
  await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
  await online;
  return t;
}

/**
 * How long a whole sync may take here: seconds on a quiet machine, but the service renders a
 * picture per scene for a sync that keeps imagery, which took over 20 s at load 15 on 2 cores.
 */
export const SYNC_WAIT_MS = 40_000;

/** Runs a sync from the start and resolves with its final status (`what` names it if it never ends). */
export async function syncToEnd(t: TestBackend, what = 'the sync to end'): Promise<SyncStatus> {
  const finished = t.waitFor('sync.finished', undefined, { what, timeoutMs: SYNC_WAIT_MS });
  await t.call('sync.run', {});
  return (await finished) as SyncStatus;
}

/** The error data of a call expected to fail (throws if it succeeds). */
export async function errorOf(t: TestBackend, method: string, input: unknown) {
  const r = await t.raw(method, input);
  if (r.ok) throw new Error(`${method} succeeded: ${JSON.stringify(r.value).slice(0, 200)}`);
  return r.error;
}

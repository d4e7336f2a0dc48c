/**
 * Real parts for the end-to-end tests and the benchmarks: the reference service (apps/server)
 * on 127.0.0.1 with the demo organisation and optional bulk catalog records, the desktop
 * backend in browser mode over a temp data dir, and headless Chromium (the system's, never a
 * downloaded one).
 */
import {
  DEMO,
  createApiKey,
  insertCatalogRecords,
  seedDemo,
  startServer,
  type RunningServer,
} from '@eo/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import type { ImageryChoice } from '@eo/domain';
import type { OutboxList } from '../shared/contract';
import { createBackend, type Backend } from '../backend/backend';
import { presetSettings } from '../backend/__tests__/harness';
import { fileSecrets } from '../backend/secrets';
import { startBrowserMode, type BrowserModeServer } from '../browser-mode/server';
import { APP_DIR } from './renderer-build';

export const SCREENSHOT_DIR = path.join(APP_DIR, 'test-output', 'e2e');

/**
 * A spec's own screenshot folder, `SCREENSHOT_DIR/<name>`, emptied. One folder per file: the
 * e2e files run in parallel, and emptying a shared folder would delete another file's shots.
 */
export function freshScreenshotDir(name: string): string {
  const dir = path.join(SCREENSHOT_DIR, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface ReferenceService {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly server: RunningServer;
  close(): Promise<void>;
}

/** Start (or restart: same data dir, same port) the reference service; workers without delays. */
export async function startReferenceService(options: {
  readonly dataDir: string;
  readonly port?: number;
}): Promise<ReferenceService> {
  const server = await startServer(
    { dataDir: options.dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 },
    { host: '127.0.0.1', port: options.port ?? 0 },
  );
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    dataDir: options.dataDir,
    server,
    close: () => server.close(),
  };
}

/**
 * Seed a fresh service: the demo organisation with `scenes` archive scenes (every 20th is a
 * demo catalog record) plus `bulkRecords` generated catalog records; returns a new API key.
 */
export function seedService(
  service: ReferenceService,
  options: { readonly scenes?: number; readonly bulkRecords?: number } = {},
): string {
  const sqlite = service.server.app.ctx.sqlite;
  const nowMs = Date.now();
  seedDemo(sqlite, { nowMs, scenes: options.scenes ?? 200 });
  if (options.bulkRecords) {
    insertCatalogRecords(sqlite, options.bulkRecords, {
      orgId: DEMO.orgId,
      userId: DEMO.users[0].id,
      nowUs: nowMs * 1000,
    });
  }
  return createApiKey(sqlite, { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'e2e' }, nowMs);
}

export interface BrowserApp {
  readonly backend: Backend;
  readonly server: BrowserModeServer;
  readonly dataDir: string;
  close(): Promise<void>;
}

/** The desktop backend + browser mode over `dataDir`, serving the built renderer. */
export async function startBrowserApp(options: {
  readonly dataDir: string;
  readonly rendererDir: string;
  /** Connectivity checks every this many ms (the app's default is 30 s). */
  readonly connectivityIntervalMs?: number;
  /** The same while the service is not online (the app's default is min(that, 5 s)). */
  readonly connectivityOfflineIntervalMs?: number;
  /**
   * The app syncs a never-synced mirror on first connect; these journeys press "Sync now"
   * themselves to watch the progress, so it is off unless asked for. Default false.
   */
  readonly syncOnFirstConnect?: boolean;
  /**
   * The pictures a fresh data dir syncs. Default `off`: the service renders ~5 thumbnails a
   * second, so the other journeys' thousands of records would wait minutes for theirs.
   */
  readonly imagery?: ImageryChoice;
}): Promise<BrowserApp> {
  presetSettings(options.dataDir, { imagery: options.imagery ?? 'off' });
  const backend = createBackend({
    dataDir: options.dataDir,
    secrets: fileSecrets(options.dataDir),
    mode: 'browser',
    connectivityIntervalMs: options.connectivityIntervalMs ?? 30_000,
    ...(options.connectivityOfflineIntervalMs === undefined
      ? {}
      : { connectivityOfflineIntervalMs: options.connectivityOfflineIntervalMs }),
    connectivityTimeoutMs: 2_000,
    syncOnFirstConnect: options.syncOnFirstConnect ?? false,
  });
  const server = await startBrowserMode({ backend, rendererDir: options.rendererDir });
  return {
    backend,
    server,
    dataDir: options.dataDir,
    async close() {
      await server.close();
      await backend.close();
    },
  };
}

/** The outbox as the app's backend lists it (what its screens read). */
export async function listOutbox(app: BrowserApp): Promise<OutboxList> {
  const r = await app.backend.dispatch('outbox.list', undefined);
  if (!r.ok) throw new Error(`outbox.list: ${r.error.message}`);
  return r.value as OutboxList;
}

export const CHROMIUM = '/usr/bin/chromium';

/** Headless system Chromium; playwright-core never downloads a browser. */
export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
}

/**
 * A page of `browser` at a desktop size, whose waits give up after 15 s (each journey's bound,
 * well under the test timeout).
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = { viewport: { width: 1280, height: 800 } },
): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(15_000);
  return page;
}

/**
 * A journey's afterAll: closes what it started in the order given (the browser first, the
 * service last; whatever never started is undefined) and removes its temp folders.
 */
export async function closeJourney(
  parts: ReadonlyArray<{ close(): Promise<unknown> } | undefined>,
  dirs: ReadonlyArray<string | undefined>,
): Promise<void> {
  for (const part of parts) await part?.close();
  for (const dir of dirs) if (dir) fs.rmSync(dir, { recursive: true, force: true });
}

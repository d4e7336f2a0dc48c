/**
 * Real parts for the end-to-end tests and the benchmarks: the reference service (packages/reference-service)
 * on 127.0.0.1 with the demo organisation and optional bulk catalog records, the desktop
 * backend in browser mode over a temp data dir, and headless Chromium (the system's, never a
 * downloaded one). A spec takes them together as one journey: `useJourney` (at the end).
 */
import { DEMO } from '@eo/fixtures';
import {
  createApiKey,
  insertCatalogRecords,
  seedDemo,
  startServer,
  type RunningServer,
} from '@eo/reference-service';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ImageryChoice } from '@eo/domain';
import type { OutboxList } from '../shared/contract';
import { createBackend, type Backend } from '../backend/backend';
import { presetSettings } from '../backend/__tests__/harness';
import { fileSecrets } from '../backend/secrets';
import type { OfflineRasterSource } from '../backend/offline-rasters';
import { startBrowserMode, type BrowserModeServer } from '../browser-mode/server';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium';
import { startGateProxy, type GateProxy, type GateRequest } from './gate-proxy';
import { connect, connectAndSync, openScreen } from './page-actions';
import { APP_DIR, RENDERER_DIR } from './renderer-build';

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
  /** Stops the service; again, it does nothing (a journey that stopped it closes it at the end). */
  close(): Promise<void>;
}

/** `close` that runs once: later calls get the first call's promise. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}

/**
 * Start (or restart: same data dir, same port) the reference service; workers without delays,
 * its worker loop off (tests move it) unless `workerTickMs` says how often it runs.
 */
export async function startReferenceService(options: {
  readonly dataDir: string;
  readonly port?: number;
  readonly workerTickMs?: number;
}): Promise<ReferenceService> {
  const server = await startServer(
    {
      dataDir: options.dataDir,
      logLevel: false,
      stepDelayMs: 0,
      workerTickMs: options.workerTickMs ?? 0,
    },
    { host: '127.0.0.1', port: options.port ?? 0 },
  );
  return {
    url: server.url,
    port: Number(new URL(server.url).port),
    dataDir: options.dataDir,
    server,
    close: once(() => server.close()),
  };
}

export interface SeedOptions {
  /** Archive scenes of the demo organisation, every 20th a demo catalog record. Default 200. */
  readonly scenes?: number;
  /** Generated catalog records on top. Default none. */
  readonly bulkRecords?: number;
}

/**
 * Seed a fresh service: the demo organisation with `scenes` archive scenes (every 20th is a
 * demo catalog record) plus `bulkRecords` generated catalog records; returns a new API key.
 */
export function seedService(service: ReferenceService, options: SeedOptions = {}): string {
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
  /** One call to the backend (what the page's bridge sends): its value, or a thrown error. */
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
  /** Stops the app; again, it does nothing. */
  close(): Promise<void>;
}

/** How the app runs, besides where (startBrowserApp's options but its folders). */
export interface BrowserAppOptions {
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
  /** Offline rasters the backend lists instead of the mirror's (windows a test wrote). */
  readonly offlineRasters?: OfflineRasterSource;
}

/** The desktop backend + browser mode over `dataDir`, serving the built renderer. */
export async function startBrowserApp(
  options: BrowserAppOptions & { readonly dataDir: string; readonly rendererDir: string },
): Promise<BrowserApp> {
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
    ...(options.offlineRasters ? { offlineRasters: options.offlineRasters } : {}),
  });
  const server = await startBrowserMode({ backend, rendererDir: options.rendererDir });
  return {
    backend,
    server,
    dataDir: options.dataDir,
    async call<T>(method: string, input?: unknown): Promise<T> {
      const r = await backend.dispatch(method, input);
      if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
      return r.value as T;
    },
    close: once(async () => {
      await server.close();
      await backend.close();
    }),
  };
}

/** The outbox as the app's backend lists it (what its screens read). */
export function listOutbox(app: BrowserApp): Promise<OutboxList> {
  return app.call<OutboxList>('outbox.list');
}

/** Headless system Chromium; playwright-core never downloads a browser. */
export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
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

/** A 1400x900 page (the desktop journeys' size; openPage's default is 1280x800). */
export const WIDE: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };

/** What a journey starts besides the app and Chromium: each spec names only what differs. */
export interface JourneyOptions {
  /** The reference service's seed (default 200 scenes: 10 demo catalog records); false: none. */
  readonly service?: SeedOptions | false;
  /**
   * The service's worker loop every this many ms, as a running service has it (orders fulfilled,
   * downloads prepared on their own). Default off: the journeys move it themselves.
   */
  readonly serviceWorkerTickMs?: number;
  /** A gate proxy in front of the service (`gate-proxy.ts`) that holds the requests `gate` picks. */
  readonly gate?: (req: GateRequest) => boolean;
  readonly app?: BrowserAppOptions;
  /** The page's context options: openPage's 1280x800 unless given (WIDE: 1400x900). */
  readonly page?: BrowserContextOptions;
  /**
   * How far the start takes the page: unset, blank (the test opens the app); `connected`, the app
   * open and connected in Settings (service URL, or the gate's, API key, Save); `synced`, that
   * and a first sync from the Sync screen, run to its end.
   */
  readonly open?: 'connected' | 'synced';
}

/**
 * One end-to-end journey's parts: the reference service (seeded, optionally behind a gate
 * proxy), the app in browser mode over its own data folder, headless Chromium with one page,
 * and its folders (screenshots in test-output/e2e/<name>/; app data and the journey's own files
 * in temp folders, removed at the end). A part the journey did not start, or has not started
 * yet, throws when read. Start it with `useJourney` in a spec (or `startJourney`) and `close` it.
 */
export class Journey {
  readonly name: string;
  readonly #options: JourneyOptions;
  #dirs?: { shots: string; app: string; files: string; service?: string };
  #service?: ReferenceService;
  #apiKey?: string;
  #proxy?: GateProxy;
  #app?: BrowserApp;
  #browser?: Browser;
  #page?: Page;

  constructor(name: string, options: JourneyOptions = {}) {
    this.name = name;
    this.#options = options;
  }

  /** test-output/e2e/<name>/, emptied at the start. */
  get shotDir(): string {
    return this.#part(this.#dirs, 'folders').shots;
  }
  /** The app's data folder (kept by restartApp). */
  get appDir(): string {
    return this.#part(this.#dirs, 'folders').app;
  }
  /** A temp folder for the journey's own files (GeoJSON, KMZ, downloads). */
  get filesDir(): string {
    return this.#part(this.#dirs, 'folders').files;
  }
  get service(): ReferenceService {
    return this.#part(this.#service, 'reference service');
  }
  /** The seeded service's API key. */
  get apiKey(): string {
    return this.#part(this.#apiKey, 'API key');
  }
  get proxy(): GateProxy {
    return this.#part(this.#proxy, 'gate proxy');
  }
  get app(): BrowserApp {
    return this.#part(this.#app, 'app');
  }
  get browser(): Browser {
    return this.#part(this.#browser, 'browser');
  }
  get page(): Page {
    return this.#part(this.#page, 'page');
  }

  async start(): Promise<void> {
    const options = this.#options;
    const prefix = `eo-e2e-${this.name}-`;
    this.#dirs = {
      shots: freshScreenshotDir(this.name),
      app: tempDir(`${prefix}app-`),
      files: tempDir(`${prefix}files-`),
    };
    if (options.service !== false) {
      this.#dirs.service = tempDir(`${prefix}service-`);
      this.#service = await startReferenceService({
        dataDir: this.#dirs.service,
        ...this.#serviceTick(),
      });
      this.#apiKey = seedService(this.#service, options.service);
      if (options.gate) this.#proxy = await startGateProxy(this.#service.url, options.gate);
    }
    this.#app = await this.#startApp(options.app);
    this.#browser = await launchChromium();
    this.#page = await openPage(this.#browser, options.page);
    if (options.open) {
      await this.page.goto(this.app.server.openUrl);
      const url = this.#proxy?.url ?? this.service.url;
      if (options.open === 'synced') await connectAndSync(this.page, url, this.apiKey);
      else await connect(this.page, url, this.apiKey);
    }
  }

  /** A screenshot of the page in shotDir as `<file>.png`; its PNG bytes. */
  shot(file: string): Promise<Buffer> {
    return this.page.screenshot({ path: path.join(this.shotDir, `${file}.png`) });
  }

  /** Opens a screen with its tab in the header (`data-screen`). */
  tab(screen: string): Promise<void> {
    return openScreen(this.page, screen);
  }

  /** Starts the service again on its data and port (closing it first, if it still runs). */
  async restartService(): Promise<void> {
    const { dataDir, port } = this.service;
    await this.service.close();
    this.#service = await startReferenceService({ dataDir, port, ...this.#serviceTick() });
  }

  #serviceTick(): { workerTickMs?: number } {
    const tick = this.#options.serviceWorkerTickMs;
    return tick === undefined ? {} : { workerTickMs: tick };
  }

  /**
   * Closes the app and starts it again on the same data folder (with the journey's app options
   * unless `app` is given), then opens it in the page, or in a new one with `newPage`.
   */
  async restartApp(restart: { app?: BrowserAppOptions; newPage?: boolean } = {}): Promise<void> {
    if (restart.newPage) await this.page.close();
    await this.app.close();
    this.#app = await this.#startApp(restart.app ?? this.#options.app);
    if (restart.newPage) this.#page = await openPage(this.browser, this.#options.page);
    await this.page.goto(this.app.server.openUrl);
  }

  /** Closes what started (Chromium first, the service last) and removes the temp folders. */
  close(): Promise<void> {
    return closeJourney(
      [this.#browser, this.#app, this.#proxy, this.#service],
      [this.#dirs?.app, this.#dirs?.files, this.#dirs?.service],
    );
  }

  #startApp(options: BrowserAppOptions = {}): Promise<BrowserApp> {
    return startBrowserApp({ ...options, dataDir: this.appDir, rendererDir: RENDERER_DIR });
  }

  #part<T>(part: T | undefined, what: string): T {
    if (part === undefined) {
      throw new Error(`journey ${this.name} has no ${what} (not started, or not one it starts)`);
    }
    return part;
  }
}

/**
 * Starts a journey's parts (see Journey and JourneyOptions) and returns the handle; closes what
 * started if one fails. For code that runs outside a spec file's hooks; a spec calls useJourney.
 * What the old-style specs spelled out maps to options: `seedService(service, seed)` is
 * `service: seed`, no service `service: false`, `startBrowserApp({ ..., X })` is `app: { X }`,
 * `openPage(browser, P)` is `page: P`, a `startGateProxy(url, hold)` is `gate: hold`, goto +
 * Settings form (+ connectAndSync) is `open: 'connected'` (`'synced'`); in the tests
 * `service = startReferenceService({ dataDir, port })` is `j.restartService()`, a new app on the
 * same data is `j.restartApp({ app?, newPage? })`, the files a test writes go to `j.filesDir`.
 * @public (for code outside a spec's hooks: none today)
 */
export async function startJourney(name: string, options?: JourneyOptions): Promise<Journey> {
  const journey = new Journey(name, options);
  try {
    await journey.start();
  } catch (e) {
    await journey.close();
    throw e;
  }
  return journey;
}

/**
 * A spec's journey: started in beforeAll, closed in afterAll (registered here, so a spec's own
 * hooks run after the start and before the close). The handle is filled in by beforeAll: read
 * its parts in hooks and tests, e.g.
 *
 *   const j = useJourney('map-tools', { service: { scenes: 60 }, page: WIDE, open: 'synced' });
 *   it('…', async () => { await j.tab('catalog'); await j.shot('01-catalog'); });
 */
export function useJourney(name: string, options?: JourneyOptions): Journey {
  const journey = new Journey(name, options);
  beforeAll(() => journey.start());
  afterAll(() => journey.close());
  return journey;
}

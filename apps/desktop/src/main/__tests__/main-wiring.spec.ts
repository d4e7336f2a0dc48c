/**
 * src/main/index.ts as a whole, with `electron` mocked: the utilityProcess is a stand-in whose
 * messages go to the real backend (serveBackend, embedded reference service, real SQLite), so
 * a call from the window travels preload-channel -> main's validation -> backend and back.
 */
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CallResult } from '../../shared/contract';
import type { FromBackend, ToBackend } from '../backend-protocol';
import { presetSettings, TEST_SETTINGS } from '../../backend/__tests__/harness';
import { serveBackend } from '../backend-serve';
import { holdDataFolder } from '../../backend/data-lock';
import { CSP } from '../../shared/csp';
import { CHROMIUM_SWITCHES } from '../chromium-switches';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-main-wiring-'));
process.env.EO_DATA_DIR = dataDir;
// No pictures: the embedded service's demo would render thumbnails for half a minute.
presetSettings(dataDir, TEST_SETTINGS);
const mainDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const h = vi.hoisted(() => ({
  windows: [] as Array<{ options: Record<string, unknown>; win: unknown }>,
  forks: [] as Array<{ modulePath: string }>,
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  sent: [] as unknown[][],
  exit: { code: null as number | null },
  sessionCalls: [] as string[],
  privileged: [] as unknown[],
  schemes: new Map<
    string,
    (request: { url: string; method?: string; headers?: Headers }) => Promise<Response>
  >(),
}));

vi.mock('electron', async () => {
  const { EventEmitter: EE } = await import('node:events');
  const app = Object.assign(new EE(), {
    isPackaged: true,
    enableSandbox: vi.fn(),
    commandLine: { appendSwitch: vi.fn() },
    requestSingleInstanceLock: vi.fn(() => true),
    setAsDefaultProtocolClient: vi.fn(() => true),
    getPath: vi.fn(() => '/should/not/be/used'),
    setPath: vi.fn(),
    getVersion: vi.fn(() => '4.5.6'),
    whenReady: vi.fn(() => Promise.resolve()),
    quit: vi.fn(),
    exit: vi.fn((code: number) => {
      h.exit.code = code;
    }),
  });
  class BrowserWindow extends EE {
    webContents = Object.assign(new EE(), { id: 1, send: (...a: unknown[]) => h.sent.push(a) });
    loadFile = vi.fn(async () => undefined);
    loadURL = vi.fn(async () => undefined);
    show = vi.fn();
    isDestroyed = () => false;
    isMinimized = () => false;
    focus = vi.fn();
    constructor(options: Record<string, unknown>) {
      super();
      h.windows.push({ options, win: this });
    }
  }
  const utilityProcess = {
    fork: vi.fn((modulePath: string) => {
      h.forks.push({ modulePath });
      // The backend side: the real serveBackend over an in-memory channel.
      const child = new EE() as InstanceType<typeof EE> & { postMessage(m: unknown): void };
      const toBackend = new EE();
      child.postMessage = (m: unknown) =>
        setImmediate(() => toBackend.emit('m', structuredClone(m)));
      (globalThis as Record<string, unknown>).__eoServe = (serve: typeof serveBackend) =>
        serve({
          postMessage: (m: FromBackend) =>
            setImmediate(() => child.emit('message', structuredClone(m))),
          onMessage: (l: (m: ToBackend) => void) => {
            toBackend.on('m', l);
            return () => toBackend.off('m', l);
          },
        });
      return child;
    }),
  };
  const safeStorage = {
    isEncryptionAvailable: () => true,
    encryptString: (s: string) => Buffer.from(`enc:${Buffer.from(s).toString('base64')}`),
    decryptString: (b: Buffer) => Buffer.from(b.toString().slice(4), 'base64').toString(),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  };
  const session = {
    defaultSession: {
      setPermissionRequestHandler: () => h.sessionCalls.push('permissionRequest'),
      setPermissionCheckHandler: () => h.sessionCalls.push('permissionCheck'),
      setDevicePermissionHandler: () => h.sessionCalls.push('devicePermission'),
      webRequest: { onHeadersReceived: () => h.sessionCalls.push('csp') },
      protocol: {
        handle: (
          scheme: string,
          fn: (request: { url: string; method?: string; headers?: Headers }) => Promise<Response>,
        ) => h.schemes.set(scheme, fn),
      },
    },
  };
  const protocol = {
    registerSchemesAsPrivileged: (schemes: unknown[]) => h.privileged.push(...schemes),
  };
  return {
    app,
    BrowserWindow,
    utilityProcess,
    safeStorage,
    session,
    protocol,
    ipcMain: {
      handle: (ch: string, fn: (event: unknown, ...args: unknown[]) => unknown) =>
        h.handlers.set(ch, fn),
      removeHandler: (ch: string) => h.handlers.delete(ch),
    },
    powerMonitor: new EE(),
    shell: { openExternal: vi.fn() },
    dialog: {
      showErrorBox: vi.fn(),
      showSaveDialog: vi.fn(),
      showMessageBox: vi.fn(async () => ({ response: 0 })),
    },
  };
});

const electron = await import('electron');
await import('../index');
// The fork happened during whenReady: connect the real backend to it.
await vi.waitFor(() => expect(h.forks.length).toBe(1));
((globalThis as Record<string, unknown>).__eoServe as (s: typeof serveBackend) => void)(
  serveBackend,
);

afterAll(async () => {
  (electron.app as unknown as EventEmitter).emit('before-quit', {
    preventDefault: () => undefined,
  });
  await vi.waitFor(() => expect(h.exit.code).toBe(0), { timeout: 20_000 });
  delete process.env.EO_DATA_DIR;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const pageUrl = 'eo-app://app/index.html';
const fromApp = { sender: { id: 1 }, senderFrame: { url: pageUrl } };
const invoke = (event: unknown, method: unknown, input?: unknown) =>
  h.handlers.get('eo:call')!(event, method, input) as Promise<CallResult<unknown>>;

describe('Electron main, wired', () => {
  it('sandboxes the app, secures the session, forks the backend, then opens the window', async () => {
    await vi.waitFor(() => expect(h.windows.length).toBe(1), { timeout: 30_000 });
    expect(electron.app.enableSandbox).toHaveBeenCalled();
    // The window's Chromium switches, each appended before the app was ready.
    const appended = vi.mocked(electron.app.commandLine.appendSwitch);
    expect(appended.mock.calls).toEqual(CHROMIUM_SWITCHES.map(([name, value]) => [name, value]));
    const ready = vi.mocked(electron.app.whenReady).mock.invocationCallOrder[0]!;
    for (const order of appended.mock.invocationCallOrder) expect(order).toBeLessThan(ready);
    expect(h.sessionCalls).toEqual(
      expect.arrayContaining(['permissionRequest', 'permissionCheck', 'csp']),
    );
    expect(h.forks[0]!.modulePath).toBe(path.join(mainDir, 'backend-process.cjs'));
    const prefs = h.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(prefs.preload).toBe(path.join(mainDir, '../preload/index.cjs'));
    // The built page over the app's scheme (app-protocol.ts), its files from out/renderer.
    const win = h.windows[0]!.win as { loadURL: { mock: { calls: unknown[][] } } };
    expect(win.loadURL.mock.calls[0]![0]).toBe(pageUrl);
    // Resume from sleep is forwarded to the backend once it is up (network-signals.ts).
    expect((electron.powerMonitor as unknown as EventEmitter).listenerCount('resume')).toBe(1);
  });

  it("takes Electron's single-instance lock per data folder, and the backend holds the folder", () => {
    const setPath = vi.mocked(electron.app.setPath);
    const singleInstance = vi.mocked(electron.app.requestSingleInstanceLock);
    expect(setPath).toHaveBeenCalledWith('userData', dataDir);
    expect(setPath.mock.invocationCallOrder[0]!).toBeLessThan(
      singleInstance.mock.invocationCallOrder[0]!,
    );
    // Browser mode (or `eo outbox flush`) on this folder is refused, naming the app.
    expect(() => holdDataFolder(dataDir, 'browser')).toThrow(
      `in use by the EO Field Desk app (pid ${process.pid}`,
    );
  });

  it('answers the app page through the real backend; the demo key is stored encrypted, never returned', async () => {
    const info = await invoke(fromApp, 'app.info', undefined);
    expect(info).toMatchObject({ ok: true, value: { version: '4.5.6', mode: 'electron' } });
    const embedded = (info as { value: { embeddedServiceUrl: string } }).value.embeddedServiceUrl;
    expect(embedded).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const settings = await invoke(fromApp, 'settings.get', {});
    expect(settings).toMatchObject({ ok: true, value: { apiKeySet: true, serviceUrl: null } });
    const stored = fs.readFileSync(path.join(dataDir, 'api-key.enc'), 'utf8');
    expect(stored.startsWith('enc:')).toBe(true);
    const key = Buffer.from(stored.slice(4), 'base64').toString();
    expect(JSON.stringify(settings)).not.toContain(key);
  });

  it('refuses other pages; a bad argument comes back from dispatch with its path', async () => {
    expect(
      await invoke({ sender: { id: 2 }, senderFrame: { url: pageUrl } }, 'settings.get', {}),
    ).toMatchObject({ ok: false });
    expect(
      await invoke(
        { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } },
        'settings.get',
        {},
      ),
    ).toMatchObject({ ok: false });
    expect(await invoke(fromApp, 'catalog.search', { limit: 'all' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', details: { issues: [{ path: 'limit' }] } },
    });
  });

  it('relays backend events to the window: a sync with progress, then search offline', async () => {
    // The first check online starts a first sync by itself (the mirror was never synced): when
    // it is already running, this one is refused as busy, and the events are that sync's.
    const run = await invoke(fromApp, 'sync.run', {});
    if (run.ok) expect(run.value).toMatchObject({ running: true });
    else expect(run.error.code).toBe('busy');
    await vi.waitFor(() => expect(h.sent.some((a) => a[1] === 'sync.finished')).toBe(true), {
      timeout: 30_000,
    });
    expect(h.sent.every((a) => a[0] === 'eo:event')).toBe(true);
    expect(h.sent.some((a) => a[1] === 'sync.progress')).toBe(true);
    const page = await invoke(fromApp, 'catalog.search', { limit: 3 });
    expect(page).toMatchObject({ ok: true, value: { items: expect.any(Array) } });
    expect((page as { value: { total: number } }).value.total).toBeGreaterThan(0);
  });

  it("answers the app's scheme with the renderer's files, the page with its CSP", async () => {
    const handle = h.schemes.get('eo-app')!;
    const page = await handle({ url: pageUrl, method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    expect(await page.text()).toContain('<div id="app">');
    // main's own sources sit beside the renderer's folder: never served.
    expect(await (await handle({ url: 'eo-app://app/..%2fmain%2findex.ts' })).text()).not.toContain(
      'electron',
    );
  });

  it('answers the quicklook scheme from the backend: refused ids, absent pictures', async () => {
    expect(h.privileged).toEqual([
      {
        scheme: 'eo-app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
      },
      { scheme: 'eo-quicklook', privileges: { standard: true, secure: true } },
      {
        scheme: 'eo-raster',
        privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
      },
    ]);
    const handle = h.schemes.get('eo-quicklook')!;
    const absent = await handle({ url: 'eo-quicklook://thumbnail/no-such-record' });
    expect(absent.status).toBe(404);
    const badVariant = await handle({ url: 'eo-quicklook://full/some-record' });
    expect(badVariant.status).toBe(400);
    expect(await badVariant.text()).toContain('variant');
    const badId = await handle({ url: 'eo-quicklook://thumbnail/a%0Ab' });
    expect(badId.status).toBe(400);
  });

  it('answers the raster scheme from the backend: no such raster, refused ids', async () => {
    const handle = h.schemes.get('eo-raster')!;
    const get = (url: string) => handle({ url, method: 'GET', headers: new Headers() });
    expect((await get('eo-raster://file/no-such-raster')).status).toBe(404);
    expect((await get('eo-raster://file/a%0Ab')).status).toBe(400);
  });

  it('saves an export where the save dialog says; a cancelled dialog saves nothing', async () => {
    const saveDialog = vi.mocked(electron.dialog.showSaveDialog);
    const target = path.join(dataDir, 'search.geojson');
    saveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const source = { kind: 'catalog', query: { limit: 3 } };
    const saved = await invoke(fromApp, 'files.export', { source, format: 'geojson' });
    expect(saved).toMatchObject({ ok: true, value: { savedTo: target, base64: '' } });
    const [win, options] = saveDialog.mock.calls[0] as unknown as [
      unknown,
      { defaultPath: string },
    ];
    expect(win).toBe(h.windows[0]!.win);
    expect(path.basename(options.defaultPath)).toMatch(/^eo-search-\d{8}-\d{4}\.geojson$/);
    const fc = JSON.parse(fs.readFileSync(target, 'utf8')) as { features: unknown[] };
    expect(fc.features).toHaveLength((saved as { value: { features: number } }).value.features);
    expect(fc.features.length).toBeGreaterThan(3); // every match, not the list's page

    saveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    const cancelled = await invoke(fromApp, 'files.export', { source, format: 'kmz' });
    expect(cancelled).toMatchObject({ ok: true, value: { savedTo: null, base64: '' } });
  });

  it('hardens every WebContents the app creates', () => {
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    (electron.app as unknown as EventEmitter).emit('web-contents-created', {}, contents);
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(contents.on.mock.calls.map((c) => c[0])).toEqual(
      expect.arrayContaining(['will-navigate', 'will-redirect', 'will-attach-webview']),
    );
  });

  it('opens record links: the app is the scheme, the page gets the parsed link once loaded', () => {
    expect(electron.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('eo-field-desk');
    const app = electron.app as unknown as EventEmitter;
    const contents = (h.windows[0]!.win as { webContents: EventEmitter }).webContents;
    const opened = () => h.sent.filter((a) => a[1] === 'link.opened').map((a) => a[2]);
    const preventDefault = vi.fn();
    contents.emit('did-start-loading');
    app.emit('second-instance', {}, ['/opt/eo/eo-field-desk', 'eo-field-desk://scene/S2A_1']);
    expect(opened()).toEqual([]); // the page is not listening yet
    contents.emit('did-finish-load');
    expect(opened()).toEqual([{ kind: 'scene', id: 'S2A_1' }]);
    app.emit('open-url', { preventDefault }, 'eo-field-desk://order/o-1');
    expect(preventDefault).toHaveBeenCalled();
    expect(opened()).toEqual([
      { kind: 'scene', id: 'S2A_1' },
      { kind: 'order', id: 'o-1' },
    ]);
    expect(h.sent.every((a) => a[0] === 'eo:event')).toBe(true);

    const refused = vi.mocked(electron.dialog.showMessageBox);
    refused.mockClear();
    app.emit('open-url', { preventDefault }, 'eo-field-desk://scene/..%2F..%2Fetc');
    app.emit('second-instance', {}, ['x', `eo-field-desk://scene/${'a'.repeat(9000)}`]);
    app.emit('open-url', { preventDefault }, 'file:///etc/passwd');
    app.emit('second-instance', {}, ['x', '--no-link-here']); // a plain second start: no dialog
    expect(opened()).toHaveLength(2);
    const details = refused.mock.calls.map((c) => (c.at(-1) as { detail: string }).detail);
    expect(details).toEqual([
      expect.stringMatching(/not a record id/),
      expect.stringMatching(/longer than 8192/),
      expect.stringMatching(/not an eo-field-desk:\/\/ link/),
    ]);
  });
});
